import { defineModule } from '@/lib/platform/manifest';
import { deliverWebhookJob } from './deliver';
import { fanOutToEndpoints } from './fan-out';
import { webhookOperations } from './operations';
import { pruneDeliveriesJob } from './prune';

export const manifest = defineModule({
  name: 'webhooks',
  operations: webhookOperations,
  jobs: [deliverWebhookJob, pruneDeliveriesJob],
  onEvents: fanOutToEndpoints,
});

export { attemptDelivery, deliverWebhookJob, MAX_ATTEMPTS, RETRY_SCHEDULE_SECONDS } from './deliver';
export { createEndpoint, deleteEndpoint, getEndpoint, listDeliveries, listEndpoints, redeliver, rotateSecret, sendTestEvent, updateEndpoint } from './endpoints';
export { deliveryLog } from './log';
export { pruneDeliveries } from './prune';
export { TEST_EVENT_TYPE, WebhookEndpointCreate } from './schemas';
export { createEndpointOperation, deleteEndpointOperation, getEndpointOperation, listDeliveriesOperation, listEndpointsOperation, redeliverOperation, rotateSecretOperation, testEndpointOperation, updateEndpointOperation } from './operations';
