import { BillingDocument } from '@/lib/domain/documents';
import { defineModule } from '@/lib/platform/manifest';
import { checkEnrollmentsJob } from './enrollment/jobs';
import { enrollmentOperations } from './enrollment/operations';
import { ereportingOperations } from './ereporting/operations';
import { encaisseeOnPaid, lifecycleJobs } from './lifecycle/jobs';
import { openOnFinalize, openTransmissionJob, submitOnRendered, submitTransmissionJob } from './transmission/jobs';
import { transmissionOperations } from './transmission/operations';
import { inboundJobs } from './inbound/jobs';
import { inboundOperations } from './inbound/operations';
import { parseTask, renderTask } from './parse';
import { InboundInvoice } from './schemas';

/**
 * E-invoicing through a Plateforme Agréée (DESIGN §11, issue 17, docs/einvoicing.md): the PA port and its AFNOR
 * XP Z12-013 connector, directory enrollment, transmission, lifecycle statuses, received invoices.
 */
export const manifest = defineModule({
  name: 'einvoicing',
  operations: [...enrollmentOperations, ...ereportingOperations, ...inboundOperations, ...transmissionOperations],
  jobs: [checkEnrollmentsJob, ...inboundJobs, openTransmissionJob, submitTransmissionJob, ...lifecycleJobs],
  subscriptions: [openOnFinalize, submitOnRendered, encaisseeOnPaid],
  // A received e-invoice is anyone's on the network: read and rendered in a bounded worker.
  sandboxTasks: [parseTask, renderTask],
  events: {
    'invoice.transmission_updated': BillingDocument,
    'invoice.lifecycle_updated': BillingDocument,
    'inbound_invoice.received': InboundInvoice,
  },
});

export { AfnorConnector } from './afnor/connector';
export { CALL_TIMEOUT_MS, forgetTokens, SERVICE_PATHS, TOKEN_TIMEOUT_MS, tokenUrlOf } from './afnor/http';
export { checkEnrollment, getEnrollment, requestEnrollment } from './enrollment/enrollment';
export { connectorFor, connectorForOrg, connectorOf, notConfigured } from './connector';
export { buildCdar, type CdarStatus, readCdar } from './lifecycle/cdar';
export { defaultIssuerRole, isLifecycleCode, LIFECYCLE_CODES, type LifecycleCode, lifecycleToken, REASON_REQUIRED } from './lifecycle-codes';
export { ereportingOperation } from './ereporting/operations';
export { audienceOf, ereportingData } from './ereporting/report';
export * from './parse';
export * from './port';
export { emitEncaissee } from './lifecycle/encaissee';
export { pollLifecycle } from './lifecycle/poll';
export { type RefreshResult, refreshLifecycle } from './lifecycle/refresh';
export { PA_HAND_LIMITS } from './connection/limits';
export { type ConnectionTestResult, PaConnectionInput, testPaConnection } from './connection/test-connection';
export { lifecycleLog } from './lifecycle/record';
export { retryTransmissionOperation } from './transmission/operations';
export { retryTransmission } from './transmission/retry';
export { submitTransmission } from './transmission/submit';
export { loadTransmission } from './transmission/state';
export { Enrollment, EnrollmentInput, InboundInvoice } from './schemas';
export { connectToDevSandbox, DEV_SANDBOX_CLIENT } from './sandbox/dev';
export type { InboundDetail } from './inbound/process';
export { inboundAnswers, inboundPdf, loadInbound } from './inbound/queries';
export { answerInbound, paFailure, sentStatuses } from './inbound/answer';
export { fetchInbound } from './inbound/fetch';
export { AcceptInboundInput, DisputeInboundInput, type InboundAnswer, InboundListQuery, RefuseInboundInput } from './inbound/schemas';
export { getEnrollmentOperation, postEnrollmentOperation } from './enrollment/operations';
export { acceptInboundOperation, disputeInboundOperation, getInboundOperation, getInboundPdfOperation, listInboundOperation, refuseInboundOperation } from './inbound/operations';
export { getInboundInvoice, listInboundInvoices } from './inbound/queries';
