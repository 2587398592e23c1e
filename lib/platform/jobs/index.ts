export { type BatchJob, defineJob, type JobDefinition } from './define';
export { enqueue, enqueueMany, getQueue, hasLiveJob, type JobRequest, MAINTENANCE_INTERVAL_SECONDS, prepareQueues, startWorkers, stopQueue, workersStarted } from './queue';
export { maintainTablesJob, maintainTablesWithoutAutovacuum, type TableMaintenance, tablesDueForMaintenance } from './table-maintenance';
