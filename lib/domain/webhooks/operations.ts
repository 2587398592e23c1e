import { IdParams, operation } from '@/lib/platform/contract';
import {
  DeliveryParams,
  EndpointListQuery,
  NoQuery,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookEndpoint,
  WebhookEndpointCreate,
  WebhookEndpointList,
  WebhookEndpointUpdate,
  WebhookEndpointWithSecret,
} from './schemas';

const tag = 'Webhooks';
const URL_RULES =
  'The url must be absolute https and resolve only to public addresses (no loopback, private, link-local, CGNAT, multicast, ' +
  'unspecified, IPv4-mapped or documentation ranges); it is checked again, after DNS, at every delivery.';

export const createEndpointOperation = operation({
  method: 'post',
  path: '/v1/webhooks/endpoints',
  tag,
  summary: 'Register a webhook endpoint',
  description: `Returns the signing secret (whsec_…) once. ${URL_RULES}`,
  scope: 'webhooks:write',
  query: NoQuery,
  body: WebhookEndpointCreate,
  responses: { 201: { description: 'The endpoint, with its secret (only here).', schema: WebhookEndpointWithSecret } },
});

export const listEndpointsOperation = operation({
  method: 'get',
  path: '/v1/webhooks/endpoints',
  tag,
  summary: 'List webhook endpoints, newest first',
  scope: 'webhooks:read',
  query: EndpointListQuery,
  responses: { 200: { description: 'A page of endpoints (no secrets).', schema: WebhookEndpointList } },
  errors: [[422, 'invalid_cursor']],
});

export const getEndpointOperation = operation({
  method: 'get',
  path: '/v1/webhooks/endpoints/{id}',
  tag,
  summary: 'Retrieve a webhook endpoint (without its secret)',
  scope: 'webhooks:read',
  params: IdParams,
  query: NoQuery,
  responses: { 200: { description: 'The endpoint.', schema: WebhookEndpoint } },
});

export const updateEndpointOperation = operation({
  method: 'patch',
  path: '/v1/webhooks/endpoints/{id}',
  tag,
  summary: 'Change the url, events or enabled flag of an endpoint',
  description: `Enabling it again clears disabled_reason. ${URL_RULES}`,
  scope: 'webhooks:write',
  params: IdParams,
  query: NoQuery,
  body: WebhookEndpointUpdate,
  responses: { 200: { description: 'The endpoint.', schema: WebhookEndpoint } },
});

export const deleteEndpointOperation = operation({
  method: 'delete',
  path: '/v1/webhooks/endpoints/{id}',
  tag,
  summary: 'Delete an endpoint and its delivery log',
  scope: 'webhooks:write',
  params: IdParams,
  query: NoQuery,
  responses: { 204: { description: 'Deleted.' } },
});

export const rotateSecretOperation = operation({
  method: 'post',
  path: '/v1/webhooks/endpoints/{id}/rotate-secret',
  tag,
  summary: "Rotate an endpoint's signing secret",
  description: 'Returns the new secret once. For 24 hours every delivery carries two signatures, one per secret.',
  scope: 'webhooks:write',
  params: IdParams,
  query: NoQuery,
  responses: { 200: { description: 'The endpoint, with its new secret (only here).', schema: WebhookEndpointWithSecret } },
});

export const testEndpointOperation = operation({
  method: 'post',
  path: '/v1/webhooks/endpoints/{id}/test',
  tag,
  summary: 'Send a webhook.test event to this endpoint',
  description: 'Queued at once, signed like any delivery; sent even if the endpoint is disabled.',
  scope: 'webhooks:write',
  params: IdParams,
  query: NoQuery,
  responses: { 202: { description: 'The queued delivery.', schema: WebhookDelivery } },
});

export const listDeliveriesOperation = operation({
  method: 'get',
  path: '/v1/webhooks/endpoints/{id}/deliveries',
  tag,
  summary: "An endpoint's deliveries, newest first",
  description: 'Each with its event, attempts so far, the last response (status, duration, first 1 KB of the body) and the next retry.',
  scope: 'webhooks:read',
  params: IdParams,
  query: EndpointListQuery,
  responses: { 200: { description: 'A page of deliveries.', schema: WebhookDeliveryList } },
  errors: [[422, 'invalid_cursor']],
});

export const redeliverOperation = operation({
  method: 'post',
  path: '/v1/webhooks/endpoints/{id}/deliveries/{delivery_id}/redeliver',
  tag,
  summary: 'Send a delivery again',
  description: 'Same event id (webhook-id), queued at once with a fresh retry schedule.',
  scope: 'webhooks:write',
  params: DeliveryParams,
  query: NoQuery,
  responses: { 202: { description: 'The delivery, pending.', schema: WebhookDelivery } },
  errors: [[409, 'delivery_in_progress']],
});

export const webhookOperations = [
  createEndpointOperation,
  listEndpointsOperation,
  getEndpointOperation,
  updateEndpointOperation,
  deleteEndpointOperation,
  rotateSecretOperation,
  testEndpointOperation,
  listDeliveriesOperation,
  redeliverOperation,
];
