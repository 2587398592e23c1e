import { and, desc, eq, sql } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import * as uploadRoute from '@/app/v1/signature/documents/route';
import * as collection from '@/app/v1/signature/envelopes/route';
import { emails, signatureFields, signatureRequestedDocuments, signatureSigners, smsMessages } from '@/db/schema';
import type { TestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';
import { sendEnvelope } from '../lifecycle';
import { decryptSignerToken } from '../tokens';

/** Test helpers of the signer API (signer-api.test.ts, signer-flow.test.ts): a sent envelope, the signers' links, the outboxes. */

export async function pdfBytes(pages = 2): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i += 1) doc.addPage([595, 842]).drawText(`Contrat page ${i + 1}`, { x: 50, y: 780 });
  return doc.save({ useObjectStreams: false });
}

/** A PDF uploaded through the API (stored, hashed); its id. */
export async function uploadedPdf(org: TestOrg, pages = 2): Promise<string> {
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(await pdfBytes(pages))], { type: 'application/pdf' }), 'contrat.pdf');
  const req = new Request('http://localhost:3000/v1/signature/documents', { method: 'POST', headers: { authorization: `Bearer ${await org.key()}` }, body: form });
  const res = await uploadRoute.POST(req, { params: Promise.resolve({}) });
  const body = await res.json();
  if (res.status !== 201) throw new Error(`upload: ${res.status} ${JSON.stringify(body)}`);
  return body.id;
}

export interface SignerSpec {
  email: string;
  full_name?: string;
  phone?: string;
  routing_order?: number;
  verification_method?: 'email_otp' | 'sms_otp' | 'none';
  /** Field types placed for this signer (page 1), all required unless named in `optional`. */
  fields?: Array<'signature' | 'initials' | 'date' | 'text' | 'checkbox' | 'name' | 'email'>;
  /** Labels of the documents this signer must upload. */
  requested?: string[];
}

/** A draft created through the API, its fields and requested documents placed, then sent by the lifecycle's send. */
export async function sentEnvelope(org: TestOrg, documentId: string, signers: SignerSpec[], options: { routing_mode?: 'sequential' | 'parallel'; subject?: string } = {}) {
  const res = await call(collection.POST, 'POST', '/v1/signature/envelopes', {
    token: await org.key(),
    body: {
      source_kind: 'document',
      source_document_id: documentId,
      routing_mode: options.routing_mode ?? 'sequential',
      subject: options.subject ?? 'Contrat de prestation',
      signers: signers.map((s) => ({
        email: s.email,
        full_name: s.full_name,
        phone: s.phone,
        routing_order: s.routing_order ?? 0,
        verification_method: s.verification_method ?? 'email_otp',
      })),
    },
  });
  if (res.status !== 201) throw new Error(`create: ${res.status} ${JSON.stringify(res.body)}`);
  const envelopeId: string = res.body.id;
  const rows = res.body.signers as Array<{ id: string; email: string }>;
  let position = 0;
  for (const [i, spec] of signers.entries()) {
    for (const [j, type] of (spec.fields ?? []).entries()) {
      await org.db.insert(signatureFields).values({
        org_id: org.org.id,
        envelope_id: envelopeId,
        signer_id: rows[i]!.id,
        position: position++,
        type,
        page: 1,
        x: 0.1,
        y: 0.05 + j * 0.1,
        width: 0.3,
        height: 0.05,
        required: true,
        label: type,
      });
    }
    for (const [j, label] of (spec.requested ?? []).entries()) {
      await org.db.insert(signatureRequestedDocuments).values({ org_id: org.org.id, envelope_id: envelopeId, signer_id: rows[i]!.id, position: j, label, required: true });
    }
  }
  await sendEnvelope(org.db, org.org.id, envelopeId, { ip: '198.51.100.1', user_agent: 'vitest-sender' });
  return { envelopeId, signerIds: rows.map((r) => r.id) };
}

/** The signer's live link token (what the request e-mail carries), or null. */
export async function tokenOf(org: TestOrg, signerId: string): Promise<string | null> {
  const [s] = await org.db.select().from(signatureSigners).where(eq(signatureSigners.id, signerId));
  return decryptSignerToken(s?.token_ciphertext ?? null, s?.token_hash ?? null);
}

/** The code of the newest code e-mail to this address. */
export async function emailedCode(org: TestOrg, to: string): Promise<string> {
  const [mail] = await org.db
    .select({ data: emails.template_data })
    .from(emails)
    .where(and(eq(emails.org_id, org.org.id), eq(emails.template, 'signature_code'), sql`${to} = any(${emails.to})`))
    .orderBy(desc(emails.id))
    .limit(1);
  if (!mail) throw new Error(`no code e-mail to ${to}`);
  return (mail.data as { code: string }).code;
}

/** The code in the newest SMS to this number (the development outbox). */
export async function textedCode(org: TestOrg, to: string): Promise<string> {
  const [sms] = await org.db
    .select({ body: smsMessages.body })
    .from(smsMessages)
    .where(and(eq(smsMessages.org_id, org.org.id), eq(smsMessages.to, to)))
    .orderBy(desc(smsMessages.id))
    .limit(1);
  return /\b(\d{6})\b/.exec(sms?.body ?? '')![1]!;
}
