export { answerInbound, type AnswerInput, paFailure, sentStatuses } from './answer';
export { fetchableOrgs, fetchInbound, type FetchReport, INBOUND_FLOW_TYPES, ingestFlow } from './fetch';
export { enqueueInboundFetches, fetchInboundJob, inboundJobs, inboundScheduleJob } from './jobs';
export { inboundOperations } from './operations';
export { type InboundDetail, processInbound } from './process';
export { getInboundInvoice, inboundAnswers, type InboundPdf, inboundFilters, inboundPdf, listInboundInvoices, loadInbound } from './queries';
export { INBOUND_ANSWERS, type InboundAnswer, type InboundAnswerResult, InboundListQuery, REFUSAL_REASONS, type RefusalReason } from './schemas';
export { type InboundRow, toInboundInvoice } from './view';
