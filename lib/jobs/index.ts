export { defineJob, type JobDefinition } from './define';
export { enqueue, enqueueMany, getQueue, type JobRequest, prepareQueues, startWorkers, stopQueue } from './queue';
