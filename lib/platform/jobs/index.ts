export { type BatchJob, defineJob, type JobDefinition } from './define';
export { enqueue, enqueueMany, getQueue, HANDED_BACK_MESSAGE, hasLiveJob, type JobRequest, MAINTENANCE_INTERVAL_SECONDS, prepareQueues, type QueueStop, startWorkers, stopQueue, waitingJobs, workersStarted } from './queue';
export { maintainTablesJob, maintainTablesWithoutAutovacuum, type TableMaintenance, tablesDueForMaintenance } from './table-maintenance';
