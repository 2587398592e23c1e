import { and, eq, inArray, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import * as uploadRoute from '@/app/v1/signature/documents/route';
import * as bulk from '@/app/v1/signature/envelopes/bulk/route';
import { emails, signatureAuditEvents, signatureBulkBatches, signatureDocuments, signatureEnvelopes, signatureFields, signatureSigners, signatureTemplates } from '@/db/schema';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';
import { verifyAuditChain } from './audit';
import { bulkSendJob } from './bulk-job';

let org: TestOrg;
let other: TestOrg;
let documentId: string;
let templateId: string;

async function pdfRow(o: TestOrg) {
  const [row] = await o.db
    .insert(signatureDocuments)
    .values({ org_id: o.org.id, name: 'reglement.pdf', storage_key: `signature/${o.org.id}/documents/r.pdf`, sha256: 'c'.repeat(64), page_count: 1, byte_size: 700 })
    .returning();
  return row!.id;
}

beforeAll(async () => {
  [org, other] = await Promise.all([createTestOrg(), createTestOrg()]);
  documentId = await pdfRow(org);
  const [tpl] = await org.db
    .insert(signatureTemplates)
    .values({ org_id: org.org.id, name: 'Règlement', subject: 'Règlement intérieur', message: 'Merci de signer.', labels: ['rh'], cc_recipients: ['rh@exemple.fr'] })
    .returning();
  templateId = tpl!.id;
});

const send = async (o: TestOrg, body: unknown, headers?: Record<string, string>) =>
  call(bulk.POST, 'POST', '/v1/signature/envelopes/bulk', { token: await o.key(), body, headers });

const people = (n: number, prefix = 'p') => Array.from({ length: n }, (_, i) => ({ email: `${prefix}${i}@exemple.fr`, full_name: `Personne ${i}` }));

/** Runs the bulk's queued send jobs as a worker would. */
async function runSendJobs(o: TestOrg, envelopeIds: string[]) {
  const jobs = (await o.db.execute(
    sql`select id, data from pgboss.job where name = ${bulkSendJob.name} and state = 'created' and data->>'org_id' = ${o.org.id}`,
  )) as unknown as { rows: Array<{ id: string; data: { envelope_id: string } }> };
  const mine = jobs.rows.filter((j) => envelopeIds.includes(j.data.envelope_id));
  for (const job of mine) await bulkSendJob.handle(job.data as never, { db: o.db, jobId: job.id, attempt: 1 });
  await o.db.execute(sql`delete from pgboss.job where id in ${sql.raw(`(${mine.map((j) => `'${j.id}'`).join(',') || 'null'})`)}`);
  return mine.length;
}

describe('POST /v1/signature/envelopes/bulk', () => {
  it('makes one mono-signer draft per valid recipient with the template presets, reports the invalid ones in request order, 200', async () => {
    const recipients = [
      { email: 'Anne@Exemple.fr', full_name: 'Anne Petit' },
      { email: 'pas-un-email', full_name: 'Bruno' },
      { email: 'carla@exemple.fr' },
      { email: 'anne@exemple.fr', full_name: 'Anne encore' },
      { email: 'dan@exemple.fr', full_name: 'Dan', phone: '0612' },
      { email: 'eve@exemple.fr', full_name: 'Ève', phone: '+33612345678' },
      'x',
    ];
    const res = await send(org, { source_document_id: documentId, template_id: templateId, recipients, subject: 'Signez svp' });
    expect(res.status).toBe(200);
    expect(res.body.sent_count).toBe(2);
    expect(res.body.failed_count).toBe(5);
    expect(res.body.results.map((r: { email: string | null }) => r.email)).toEqual(['anne@exemple.fr', 'pas-un-email', 'carla@exemple.fr', 'anne@exemple.fr', 'dan@exemple.fr', 'eve@exemple.fr', null]);
    expect(res.body.results.map((r: { error: string | null }) => r.error?.split(':')[0] ?? null)).toEqual([
      null,
      'recipients.1.email',
      'recipients.2.full_name',
      'recipients.3.email',
      'recipients.4.phone',
      null,
      'recipients.6',
    ]);
    const ids = res.body.results.filter((r: { envelope_id: string | null }) => r.envelope_id).map((r: { envelope_id: string }) => r.envelope_id);
    expect(ids).toHaveLength(2);
    const rows = await org.db.select().from(signatureEnvelopes).where(inArray(signatureEnvelopes.id, ids));
    for (const row of rows) {
      expect(row).toMatchObject({ status: 'draft', source_kind: 'document', document_id: documentId, subject: 'Signez svp', message: 'Merci de signer.', labels: ['rh'], cc_recipients: ['rh@exemple.fr'], template_id: templateId, reminder_max_count: 1 });
      expect(row.bulk_key).toMatch(/^[0-9a-f]{64}$/);
      const signers = await org.db.select().from(signatureSigners).where(eq(signatureSigners.envelope_id, row.id));
      expect(signers).toHaveLength(1);
      expect(await verifyAuditChain(org.db, row.id)).toMatchObject({ ok: true, count: 1 });
    }
    const [batch] = await org.db.select().from(signatureBulkBatches).where(eq(signatureBulkBatches.id, rows[0]!.bulk_batch_id!));
    expect(batch).toMatchObject({ recipient_count: 7, sent_count: 2, failed_count: 5 });
    expect(batch!.results).toEqual(res.body.results);

    // The jobs send them: each signer gets the request e-mail.
    expect(await runSendJobs(org, ids)).toBe(2);
    const sent = await org.db.select().from(signatureEnvelopes).where(inArray(signatureEnvelopes.id, ids));
    expect(sent.map((e) => e.status)).toEqual(['sent', 'sent']);
    const mails = await org.db.select().from(emails).where(and(eq(emails.org_id, org.org.id), eq(emails.template, 'signature_request')));
    expect(mails.map((m) => m.to[0]).sort()).toEqual(['anne@exemple.fr', 'eve@exemple.fr']);
  });

  it('a retried request (same Idempotency-Key, or the same body) creates nothing twice and sends again a draft a failed send left', async () => {
    const body = { source_document_id: documentId, recipients: people(5, 'retry') };
    const first = await send(org, body);
    expect(first.body.sent_count).toBe(5);
    const ids = first.body.results.map((r: { envelope_id: string }) => r.envelope_id);
    // No job ran yet (a send failed or is slow): the same request again finds the same envelopes and queues nothing new.
    const again = await send(org, body);
    expect(again.status).toBe(200);
    expect(again.body.results.map((r: { envelope_id: string }) => r.envelope_id)).toEqual(ids);
    const count = async () =>
      (await org.db.select({ id: signatureEnvelopes.id }).from(signatureEnvelopes).where(eq(signatureEnvelopes.org_id, org.org.id))).length;
    const before = await count();
    // One envelope is sent, the job of another one is lost: a retry queues a send for the drafts without a live job only.
    expect(await runSendJobs(org, [ids[0]])).toBe(1);
    await org.db.execute(sql`delete from pgboss.job where name = ${bulkSendJob.name} and data->>'envelope_id' = ${ids[1]}`);
    const third = await send(org, body);
    expect(third.body.results.map((r: { envelope_id: string }) => r.envelope_id)).toEqual(ids);
    expect(await count()).toBe(before);
    const queued = (await org.db.execute(
      sql`select data->>'envelope_id' as id from pgboss.job where name = ${bulkSendJob.name} and data->>'org_id' = ${org.org.id} and state = 'created'`,
    )) as unknown as { rows: Array<{ id: string }> };
    expect(queued.rows.map((r) => r.id).sort()).toEqual(ids.slice(1).sort());
    expect(await runSendJobs(org, ids)).toBe(4);
    const statuses = await org.db.select({ status: signatureEnvelopes.status }).from(signatureEnvelopes).where(inArray(signatureEnvelopes.id, ids));
    expect(statuses.every((s) => s.status === 'sent')).toBe(true);
    // Every envelope's chain: created then sent, once.
    const events = await org.db.select().from(signatureAuditEvents).where(and(inArray(signatureAuditEvents.envelope_id, ids), eq(signatureAuditEvents.event_type, 'envelope.created')));
    expect(events).toHaveLength(5);

    // With an Idempotency-Key the key is the request's identity: the same body under a new key is a new bulk.
    const keyed = await send(org, body, { 'idempotency-key': 'bulk-001' });
    expect(keyed.body.results.map((r: { envelope_id: string }) => r.envelope_id)).not.toEqual(ids);
    const replay = await send(org, body, { 'idempotency-key': 'bulk-001' });
    expect(replay.body).toEqual(keyed.body);
  });

  it('refuses an empty or oversized list and an invalid shared field with 422 and the field; another org’s document', async () => {
    const cases: Array<[unknown, string]> = [
      [{ source_document_id: documentId, recipients: [] }, 'recipients'],
      [{ source_document_id: documentId, recipients: people(101) }, 'recipients'],
      [{ source_document_id: documentId }, 'recipients'],
      [{ source_document_id: documentId, recipients: people(1), verification_method: 'none' }, 'verification_method'],
      [{ source_document_id: documentId, recipients: people(1), expires_at: 'demain' }, 'expires_at'],
      [{ source_document_id: documentId, recipients: people(1), cc_recipients: ['nope'] }, 'cc_recipients.0'],
      [{ source_document_id: await pdfRow(other), recipients: people(1) }, 'source_document_id'],
      [{ source_document_id: documentId, recipients: people(1), template_id: '0190b6a0-0000-7000-8000-000000000000' }, 'template_id'],
    ];
    for (const [body, field] of cases) {
      const res = await send(org, body);
      expect(res.status, JSON.stringify(body).slice(0, 200)).toBe(422);
      expect(res.body).toMatchObject({ code: 'validation_error', field });
    }
    const hundred = await send(org, { source_document_id: documentId, recipients: people(100, 'cent') });
    expect(hundred.status).toBe(200);
    expect(hundred.body.sent_count).toBe(100);
  });

  it('a NUL or a control character in a recipient is a 422 naming it (the NUL e-mail was a 500); a 65-character local part is that recipient’s error', async () => {
    for (const [recipient, field] of [
      [{ email: 'nul\u0000@exemple.fr', full_name: 'Nul' }, 'recipients.1.email'],
      [{ email: 'esc@exemple.fr', full_name: 'Es\u001bc' }, 'recipients.1.full_name'],
    ] as const) {
      const res = await send(org, { source_document_id: documentId, recipients: [...people(1, 'ctl'), recipient] });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ code: 'validation_error', message: `${field}: contains an invalid character`, field });
    }
    const long = `${'l'.repeat(65)}@exemple.fr`;
    const res = await send(org, { source_document_id: documentId, recipients: [{ email: long, full_name: 'Trop Long' }, { email: `${'l'.repeat(64)}@exemple.fr`, full_name: 'Juste' }] });
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: { error: string | null }) => r.error)).toEqual(['recipients.0.email: must be an e-mail address of at most 254 characters, 64 before the @', null]);
  });

  it('sms_otp needs each recipient’s phone; needs signature:write', async () => {
    const res = await send(org, {
      source_document_id: documentId,
      verification_method: 'sms_otp',
      recipients: [
        { email: 'sms1@exemple.fr', full_name: 'Sam', phone: '+33611111111' },
        { email: 'sms2@exemple.fr', full_name: 'Sid' },
      ],
    });
    expect(res.body.results.map((r: { error: string | null }) => r.error)).toEqual([null, 'recipients.1.phone: required when verification_method is sms_otp']);
    const denied = await call(bulk.POST, 'POST', '/v1/signature/envelopes/bulk', {
      token: await org.key(['signature:read']),
      body: { source_document_id: documentId, recipients: people(1) },
    });
    expect(denied.status).toBe(403);
  });

  it('places the document’s text tags on each recipient’s envelope; tags naming a second signer, or a past expiry, are 422', async () => {
    const tagged = async (text: string) => {
      const doc = await PDFDocument.create();
      const font = await doc.embedFont(StandardFonts.Helvetica);
      doc.addPage([595, 842]).drawText(text, { x: 72, y: 700, size: 12, font });
      const form = new FormData();
      form.set('file', new Blob([new Uint8Array(await doc.save())], { type: 'application/pdf' }), 'reglement.pdf');
      const req = new Request('http://localhost:3000/v1/signature/documents', { method: 'POST', headers: { authorization: `Bearer ${await org.key()}` }, body: form });
      const res = await uploadRoute.POST(req, { params: Promise.resolve({}) });
      expect(res.status).toBe(201);
      return ((await res.json()) as { id: string }).id;
    };
    const one = await tagged('Lu et approuvé {{signature:1}} le {{date:1}}');
    const res = await send(org, { source_document_id: one, recipients: people(3, 'tag') });
    expect(res.status).toBe(200);
    const ids = (res.body as { results: Array<{ envelope_id: string }> }).results.map((r) => r.envelope_id);
    const fields = await org.db.select().from(signatureFields).where(inArray(signatureFields.envelope_id, ids));
    expect(fields).toHaveLength(6);
    for (const id of ids) {
      const own = fields.filter((f) => f.envelope_id === id);
      expect(own.map((f) => f.type).sort()).toEqual(['date', 'signature']);
      const [signer] = await org.db.select().from(signatureSigners).where(eq(signatureSigners.envelope_id, id));
      expect(own.every((f) => f.signer_id === signer!.id && f.origin === 'tag')).toBe(true);
    }

    const two = await tagged('{{signature:1}} et {{signature:2}}');
    const refused = await send(org, { source_document_id: two, recipients: people(2, 'deux') });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ field: 'source_document_id' });
    const past = await send(org, { source_document_id: one, recipients: people(1, 'passe'), expires_at: '2020-01-01T00:00:00Z' });
    expect(past.status).toBe(422);
    expect(past.body).toMatchObject({ field: 'expires_at' });
    const made = await org.db.select().from(signatureSigners).where(inArray(signatureSigners.email, ['deux0@exemple.fr', 'passe0@exemple.fr']));
    expect(made).toEqual([]);
  });
});
