import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Db } from '@/db/client';
import { EMAIL_TEMPLATES, type EmailAttachmentMeta, type EmailTemplate, emailAttachments, emails, LANGUAGES } from '@/db/schema';
import { fromZodError, validationError } from '@/lib/platform/errors';
import { enqueue } from '@/lib/platform/jobs';
import { configuredTransport, emailFrom } from './config';
import { sendEmailJob } from './jobs';
import { renderEmail, type TemplateData } from './templates';

/** An attachment passed inline: its bytes travel with the e-mail (e.g. the document's PDF). */
export interface EmailAttachmentInput {
  filename: string;
  contentType: string;
  content: Buffer;
}

interface QueueEmailCommon {
  to: string[];
  cc?: string[];
  replyTo?: string | null;
  /** Overrides the template's subject line. */
  subject?: string | null;
  language: 'fr' | 'en';
  documentId?: string | null;
  attachments?: EmailAttachmentInput[];
}

/** What to send: recipients, a template with its data, and optionally the document and its attachments. */
export type QueueEmailInput = { [K in EmailTemplate]: QueueEmailCommon & { template: K; data: TemplateData[K] } }[EmailTemplate];

/** Resend takes at most 50 recipients per field and 40 MB of base64 attachments per e-mail. */
const MAX_ATTACHMENT_BYTES = 30 * 1024 * 1024;

const Address = z.string().trim().pipe(z.email());
const Envelope = z.object({
  to: z.array(Address).min(1).max(50),
  cc: z.array(Address).max(50).default([]),
  replyTo: Address.nullish(),
  subject: z
    .string()
    .trim()
    .max(998)
    .nullish()
    .transform((s) => s || null),
  template: z.enum(EMAIL_TEMPLATES),
  language: z.enum(LANGUAGES),
  documentId: z.uuid().nullish(),
  attachments: z
    .array(
      z.object({
        filename: z.string().trim().min(1).max(255),
        contentType: z.string().trim().min(1).max(255),
        content: z.instanceof(Buffer),
      }),
    )
    .max(10)
    .default([]),
});

export type QueuedEmail = Pick<typeof emails.$inferSelect, 'id' | 'job_id' | 'status' | 'transport' | 'subject' | 'to'>;

/**
 * Renders the e-mail and records it, status `queued`, with its `email.send` job, in the caller's transaction: both
 * exist exactly when the change that sends it does, and the e-mail leaves once that commits. The transport is chosen now (Resend when RESEND_API_KEY is set, else the outbox) and
 * kept: an outbox e-mail never leaves later, a Resend one never silently lands in the outbox.
 */
export async function queueEmail(tx: Db, orgId: string, input: QueueEmailInput): Promise<QueuedEmail> {
  const parsed = Envelope.safeParse(input);
  if (!parsed.success) throw fromZodError(parsed.error);
  const envelope = parsed.data;
  const size = envelope.attachments.reduce((sum, a) => sum + a.content.length, 0);
  if (size > MAX_ATTACHMENT_BYTES) throw validationError('attachments', `attachments: ${size} bytes, more than the ${MAX_ATTACHMENT_BYTES} an e-mail may carry`);

  const rendered = await renderEmail(input.template, input.data as never, envelope.language);
  const transport = configuredTransport();
  const attachments: EmailAttachmentMeta[] = envelope.attachments.map((a) => ({
    filename: a.filename,
    content_type: a.contentType,
    size: a.content.length,
    storage_key: null,
  }));

  const [row] = await tx
    .insert(emails)
    .values({
      org_id: orgId,
      from: emailFrom(),
      to: envelope.to,
      cc: envelope.cc,
      reply_to: envelope.replyTo ?? null,
      subject: envelope.subject ?? rendered.subject,
      template: envelope.template,
      template_data: rendered.data,
      language: envelope.language,
      document_id: envelope.documentId ?? null,
      attachments,
      html: rendered.html,
      text: rendered.text,
      transport,
      job_id: randomUUID(),
    })
    .returning({ id: emails.id, job_id: emails.job_id, status: emails.status, transport: emails.transport, subject: emails.subject, to: emails.to });
  // The outbox keeps the metadata only; Resend needs the bytes when the job runs.
  if (transport === 'resend' && envelope.attachments.length) {
    await tx.insert(emailAttachments).values(envelope.attachments.map((a, position) => ({ email_id: row!.id, position, content: a.content })));
  }
  await enqueue(tx, sendEmailJob, { email_id: row!.id }, { id: row!.job_id! });
  return row!;
}
