import { defineModule } from '@/lib/platform/manifest';
import { emailJobs } from './jobs';

export const manifest = defineModule({ name: 'email', jobs: emailJobs });

export { MAX_SEND_ATTEMPTS } from './config';
export { sendEmailJob } from './jobs';
export { queueEmail, type QueueEmailInput } from './queue-email';
export { EmailRetryError } from './send';
export { type Language, renderEmail } from './templates';
export { reminderTone, type ReminderTone } from './templates/data';
export { getEmail, listDocumentEmails, listOutboxEmails } from './mailbox';
export { configuredTransport } from './config';
export { handleResendWebhook } from './webhook';
