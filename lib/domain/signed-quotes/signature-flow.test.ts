import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import * as consentRoute from '@/app/api/sign/[token]/consent/route';
import * as stateRoute from '@/app/api/sign/[token]/route';
import * as signRoute from '@/app/api/sign/[token]/sign/route';
import * as sendRoute from '@/app/v1/signature/envelopes/[id]/send/route';
import * as envelopesRoute from '@/app/v1/signature/envelopes/route';
import { documents, emails, invoiceSettings, signatureSigners } from '@/db/schema';
import { billingContext, line } from '@/lib/domain/documents/testing';
import { connectedStripe } from '@/lib/domain/payments/testing';
import { decryptSignerToken } from '@/lib/domain/signature';
import { call } from '@/lib/testing/http';
import { type CloseSaleJobData, closeSignedQuoteJob } from './jobs';

/*
 * Issue 18's journey « quote → signature → invoice finalized and sent », through the real endpoints: a finalized quote
 * wrapped in an envelope, sent, opened and signed by its one signer on the public API; the completion's transaction
 * writes the close-sale job, which a worker runs (here: its handler with the job's stored data).
 */
const ctx = connectedStripe({ storage: true });
let b: Awaited<ReturnType<typeof billingContext>>;
beforeAll(async () => {
  b = await billingContext(ctx.org);
  const values = { auto_convert_signed_quotes: true, auto_finalize_signed_invoices: true, auto_send_signed_invoices: true };
  await ctx.org.db
    .insert(invoiceSettings)
    .values({ org_id: ctx.org.org.id, ...values })
    .onConflictDoUpdate({ target: invoiceSettings.org_id, set: values });
});

const UA = { 'user-agent': 'vitest-quote', 'x-forwarded-for': '203.0.113.30' };
const signerPost = (route: { POST: typeof signRoute.POST }, token: string, suffix: string, body?: unknown) =>
  call(route.POST, 'POST', `/api/sign/${token}/${suffix}`, { params: { token }, headers: UA, body });
const closeJobs = async (quoteId: string) =>
  (
    (await ctx.org.db.execute(sql`select data from pgboss.job where name = ${closeSignedQuoteJob.name} and data->>'quote_id' = ${quoteId}`)) as unknown as {
      rows: Array<{ data: CloseSaleJobData }>;
    }
  ).rows;

describe('quote → signature → invoice', () => {
  it('the client signs the quote: it is accepted, and its invoice finalized and e-mailed with the payment link', async () => {
    const client = await b.contact({ email: 'direction@client.example' });
    const quote = await b.issued({ type: 'devis', contact_id: client.id, items: [line('Audit', '2', 75000)] });
    const token = await ctx.org.key();
    const created = await call(envelopesRoute.POST, 'POST', '/v1/signature/envelopes', {
      token,
      body: { source_kind: 'devis', source_document_id: quote.id, signers: [{ email: 'direction@client.example', full_name: 'Claire Client', verification_method: 'none' }] },
    });
    expect(created.status).toBe(201);
    const envelopeId: string = created.body.id;
    expect((await call(sendRoute.POST, 'POST', `/v1/signature/envelopes/${envelopeId}/send`, { token, params: { id: envelopeId }, headers: UA })).status).toBe(200);

    const [signer] = await ctx.org.db.select().from(signatureSigners).where(eq(signatureSigners.envelope_id, envelopeId));
    const link = decryptSignerToken(signer!.token_ciphertext, signer!.token_hash)!;
    expect((await call(stateRoute.GET, 'GET', `/api/sign/${link}`, { params: { token: link }, headers: UA })).status).toBe(200);
    expect((await signerPost(consentRoute, link, 'consent')).status).toBe(200);
    // Nothing is billed before the signature.
    expect(await closeJobs(quote.id)).toEqual([]);
    const signed = await signerPost(signRoute, link, 'sign', { signature: { kind: 'typed', value: 'Claire Client' } });
    expect(signed.status).toBe(200);

    // The completion wrote the job with the event; a worker runs it.
    const jobs = await closeJobs(quote.id);
    expect(jobs.map((j) => j.data)).toEqual([{ org_id: ctx.org.org.id, quote_id: quote.id, envelope_id: envelopeId }]);
    await closeSignedQuoteJob.handle(jobs[0]!.data, { db: ctx.org.db, jobId: 'flow', attempt: 1 });

    const [quoteNow] = await ctx.org.db.select().from(documents).where(eq(documents.id, quote.id));
    expect(quoteNow!.status).toBe('accepted');
    const invoices = await ctx.org.db.select().from(documents).where(and(eq(documents.org_id, ctx.org.org.id), eq(documents.converted_from_id, quote.id)));
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({ type: 'facture', status: 'sent', total_ttc: quote.total_ttc, number: expect.stringMatching(/^FAC-/) });
    const mails = await ctx.org.db.select().from(emails).where(and(eq(emails.org_id, ctx.org.org.id), eq(emails.document_id, invoices[0]!.id)));
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ template: 'document_sent', to: ['direction@client.example'] });
    expect((mails[0]!.template_data as { pay_url: string | null }).pay_url).toMatch(/\/pay\//);
  });
});
