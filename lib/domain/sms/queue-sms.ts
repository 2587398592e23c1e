import { z } from 'zod';
import type { Db } from '@/db/client';
import { smsMessages } from '@/db/schema';
import { fromZodError } from '@/lib/platform/errors';
import { enqueue } from '@/lib/platform/jobs';
import { sendSmsJob } from './jobs';
import { configuredSmsProvider } from './provider';

const SmsInput = z.object({
  to: z.string().regex(/^\+[1-9]\d{6,14}$/, 'must be a phone number in E.164 form (+33612345678)'),
  // One to a few segments: a code message is far shorter.
  body: z.string().trim().min(1).max(480),
  purpose: z.string().trim().min(1).max(50),
});

export type SmsRecord = typeof smsMessages.$inferSelect;

/**
 * Records a text message in the caller's transaction. Without a provider it lands in the outbox, `sent` at once (the
 * row is the delivered message); with one it is `queued` with its `sms.send` job, which leaves once this commits.
 */
export async function queueSms(tx: Db, orgId: string, input: z.input<typeof SmsInput>): Promise<SmsRecord> {
  const parsed = SmsInput.safeParse(input);
  if (!parsed.success) throw fromZodError(parsed.error);
  const provider = configuredSmsProvider();
  const [row] = await tx
    .insert(smsMessages)
    .values({
      org_id: orgId,
      ...parsed.data,
      transport: provider ? 'provider' : 'outbox',
      provider,
      status: provider ? 'queued' : 'sent',
      sent_at: provider ? null : new Date(),
    })
    .returning();
  if (provider) await enqueue(tx, sendSmsJob, { sms_id: row!.id });
  return row!;
}
