import { defineModule } from '@/lib/platform/manifest';
import { sendSmsJob } from './jobs';

/** Text messages through a provider port, or the development outbox (docs/signature.md, "The signer's API and codes"). */
export const manifest = defineModule({ name: 'sms', jobs: [sendSmsJob] });

export { MAX_SMS_ATTEMPTS, sendQueuedSms, sendSmsJob } from './jobs';
export { listOutboxSms } from './outbox';
export { configuredSmsProvider, registerSmsProvider, type SmsProvider, smsProvider } from './provider';
export { queueSms, type SmsRecord } from './queue-sms';
