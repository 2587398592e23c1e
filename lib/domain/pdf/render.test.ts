import { randomUUID } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentRenders, documents } from '@/db/schema';
import { finalizeDocument } from '@/lib/domain/documents';
import { billingContext, line } from '@/lib/domain/documents/testing';
import { defineJob, startWorkers, stopQueue } from '@/lib/platform/jobs';
import { buildOpenApiDocument } from '@/lib/platform/openapi';
import { LocalStorage, type ObjectStorage, readAll, S3Storage, setStorage, sha256Hex, startFakeS3 } from '@/lib/platform/storage';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';
import { missingValidators } from '@/lib/domain/facturx/testing';
import { enqueueRender, RECOVERY_SECONDS, type RenderJobData, renderDocumentJob } from './jobs';
import { RENDER_EXPIRY_SECONDS, renderStoredDocument, STALE_RENDERING_MS } from './render-stored-document';
import { pdfRoutes } from './testing';

const run = promisify(execFile);
const hasPoppler = !missingValidators().some((m) => m === 'pdfdetach' || m === 'pdfinfo');
/** The text of a PDF in content order (-raw also reads the rotated watermark), whitespace collapsed. */
const textOf = async (pdf: Buffer) => {
  const file = path.join(dir, `text-${Math.random().toString(36).slice(2)}.pdf`);
  await writeFile(file, pdf);
  return (await run('pdftotext', ['-raw', file, '-'])).stdout.replace(/\s+/g, ' ');
};

let dir: string;
let storage: LocalStorage;
let org: TestOrg;
let other: TestOrg;
let api: Awaited<ReturnType<typeof billingContext>>;
let contactId: string;

/** A storage that refuses every write: a render that cannot be stored. */
const brokenStorage = (): ObjectStorage => ({
  kind: 'local',
  put: async () => {
    throw new Error('disk full');
  },
  get: async () => null,
  head: async () => null,
  delete: async () => {},
});

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'paraphe-render-'));
  storage = new LocalStorage(path.join(dir, 'storage'));
  setStorage(storage);
  org = await createTestOrg();
  other = await createTestOrg();
  api = await billingContext(org);
  contactId = (await api.contact({ email: 'compta@client.fr' })).id;
  // The queue is shared with every test process on PostgreSQL: this worker renders this org's documents only.
  const ownJobs = defineJob<RenderJobData>({
    ...renderDocumentJob,
    async handle(data, ctx) {
      if (data.org_id !== org.org.id || quiet.delete(data.document_id)) return;
      await renderDocumentJob.handle(data, ctx);
    },
  });
  await startWorkers([ownJobs as never]);
}, 60_000);

afterAll(async () => {
  await stopQueue();
  setStorage(undefined);
  await rm(dir, { recursive: true, force: true });
});

const invoice = (extra: Record<string, unknown> = {}) => ({
  type: 'facture',
  contact_id: contactId,
  operation_nature: 'services',
  items: [line('Audit', '2', 60000, '20', { unit: 'DAY' })],
  ...extra,
});

const get = (id: string, headers: Record<string, string> = {}, query: Record<string, string> = {}, token = api.token) =>
  call(pdfRoutes.pdf, 'GET', `/v1/invoices/${id}/pdf`, { token, params: { id }, headers, query });
const rawPdf = async (id: string, headers: Record<string, string> = {}, query: Record<string, string> = {}) =>
  pdfRoutes.pdf(new Request(`http://localhost/v1/invoices/${id}/pdf?${new URLSearchParams(query)}`, { headers: { authorization: `Bearer ${api.token}`, ...headers } }), {
    params: Promise.resolve({ id }),
  });
const render = (id: string, token = api.token) => call(pdfRoutes.render, 'POST', `/v1/invoices/${id}/render`, { token, params: { id } });
const preview = (id: string) =>
  pdfRoutes.preview(new Request(`http://localhost/v1/invoices/${id}/preview`, { headers: { authorization: `Bearer ${api.token}` } }), { params: Promise.resolve({ id }) });

/** The render state, pdf's row (none yet: pending, as the API's render_status reads it). */
async function statusOf(id: string) {
  const [row] = await org.db.select({ s: documentRenders.status }).from(documentRenders).where(eq(documentRenders.document_id, id));
  return row?.s ?? 'pending';
}
async function renderRow(id: string) {
  const [row] = await org.db.select().from(documentRenders).where(eq(documentRenders.document_id, id));
  return row;
}
async function waitFor(id: string, status: string, ms = 30_000) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if ((await statusOf(id)) === status) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`document ${id} is ${await statusOf(id)}, not ${status}, after ${ms} ms`);
}
/** Documents whose finalization's render job the worker drops, as if it were lost: the tests drive their render. */
const quiet = new Set<string>();
/** Finalized, its render job dropped: it stays pending until a test renders it. */
async function finalizedQuietly(extra: Record<string, unknown> = {}) {
  const draft = await api.draft(invoice(extra));
  quiet.add(draft.id);
  return (await finalizeDocument(org.db, org.org.id, draft.id)).id;
}
const objectsOf = async (id: string) => {
  try {
    return await readdir(path.join(dir, 'storage/documents', org.org.id, id));
  } catch {
    return [];
  }
};

describe('asynchronous rendering', () => {
  it('finalization leaves the document pending and queues its render; the worker makes it ready', async () => {
    const doc = await api.issued(invoice());
    expect(doc.render_status).toBe('pending');
    await waitFor(doc.id, 'ready');
    const row = await renderRow(doc.id);
    expect(row).toMatchObject({ org_id: org.org.id, attempts: 1, content_type: 'application/pdf', facturx_profile: 'EN 16931', last_error: null });
    expect((await api.get(doc.id)).body.render_status).toBe('ready');
  });

  it('a cancellation renders the credit note it issues', async () => {
    const doc = await api.issued(invoice());
    api.expectStatus(await api.cancel(doc.id), 200, 'cancel');
    const [creditNote] = await org.db.select().from(documents).where(eq(documents.avoir_for_id, doc.id));
    await waitFor(creditNote!.id, 'ready');
    expect((await renderRow(creditNote!.id))?.facturx_profile).toBe('EN 16931');
  });

  it('GET /pdf streams the stored file with its number as file name and its SHA-256 as ETag; If-None-Match → 304', async () => {
    const doc = await api.issued(invoice());
    await waitFor(doc.id, 'ready');
    const row = (await renderRow(doc.id))!;
    const res = await rawPdf(doc.id);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-length')).toBe(String(row.size));
    expect(res.headers.get('etag')).toBe(`"${row.sha256}"`);
    expect(res.headers.get('content-disposition')).toBe(`inline; filename="${doc.number}.pdf"; filename*=UTF-8''${doc.number}.pdf`);
    expect(res.headers.get('x-request-id')).toBeTruthy();
    const body = Buffer.from(await res.arrayBuffer());
    expect(sha256Hex(body)).toBe(row.sha256);
    expect(body.subarray(0, 5).toString()).toBe('%PDF-');

    expect((await rawPdf(doc.id, {}, { download: 'true' })).headers.get('content-disposition')).toMatch(/^attachment; filename="/);
    for (const tag of [`"${row.sha256}"`, `W/"${row.sha256}"`, `"other", "${row.sha256}"`, '*']) {
      const cached = await rawPdf(doc.id, { 'if-none-match': tag });
      expect(cached.status, tag).toBe(304);
      expect(cached.headers.get('etag')).toBe(`"${row.sha256}"`);
      expect(await cached.text()).toBe('');
    }
    expect((await rawPdf(doc.id, { 'if-none-match': '"stale"' })).status).toBe(200);
  });

  it('GET /pdf is 409 pdf_not_ready, with the status, until the PDF is stored', async () => {
    const pending = await finalizedQuietly();
    const res = await get(pending);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'pdf_not_ready', field: null });
    expect(res.body.message).toContain('pending');
    const draft = await api.draft(invoice());
    expect((await get(draft.id)).body).toMatchObject({ code: 'pdf_not_ready', message: expect.stringContaining('draft') });
  });

  it('a failed attempt goes back to pending; the last one leaves it failed; POST /render starts over', async () => {
    const id = await finalizedQuietly();
    setStorage(brokenStorage());
    try {
      await expect(renderDocumentJob.handle({ org_id: org.org.id, document_id: id }, { db: org.db, jobId: 'j1', attempt: 1 })).rejects.toThrow('disk full');
      expect(await statusOf(id)).toBe('pending');
      expect(await renderRow(id)).toMatchObject({ attempts: 1, last_error: 'Error: disk full', storage_key: null });
      const last = renderDocumentJob.retryLimit + 1;
      await expect(renderDocumentJob.handle({ org_id: org.org.id, document_id: id }, { db: org.db, jobId: 'j1', attempt: last })).rejects.toThrow('disk full');
      expect(await statusOf(id)).toBe('failed');
      expect((await get(id)).body.message).toContain('failed');
    } finally {
      setStorage(storage);
    }
    const res = await render(id);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ document_id: id, attempts: 2 });
    expect(['pending', 'rendering', 'ready']).toContain(res.body.render_status);
    await waitFor(id, 'ready');
    expect(await renderRow(id)).toMatchObject({ attempts: 3, last_error: null });
  });

  it('a stored PDF is never replaced: re-rendering is a no-op and the database refuses a change', async () => {
    const doc = await api.issued(invoice());
    await waitFor(doc.id, 'ready');
    const before = (await renderRow(doc.id))!;
    expect(await renderStoredDocument(org.db, org.org.id, doc.id)).toBe('skipped');
    const res = await render(doc.id);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ render_status: 'ready', sha256: before.sha256, size: before.size });
    expect(await renderRow(doc.id)).toEqual(before);
    expect(await objectsOf(doc.id)).toHaveLength(2); // the PDF and its metadata sidecar

    await expect(org.db.update(documentRenders).set({ storage_key: 'documents/x.pdf' }).where(eq(documentRenders.document_id, doc.id))).rejects.toThrow();
    await expect(org.db.update(documentRenders).set({ sha256: '0'.repeat(64) }).where(eq(documentRenders.document_id, doc.id))).rejects.toThrow();
    await expect(org.db.delete(documentRenders).where(eq(documentRenders.document_id, doc.id))).rejects.toThrow();
    expect(await renderRow(doc.id)).toEqual(before);
  });

  it('two renders of the same document at once store one PDF', async () => {
    const id = await finalizedQuietly();
    const outcomes = await Promise.all([renderStoredDocument(org.db, org.org.id, id), renderStoredDocument(org.db, org.org.id, id)]);
    expect(outcomes.sort()).toEqual(['busy', 'ready']);
    expect(await objectsOf(id)).toHaveLength(2);
    expect((await renderRow(id))?.attempts).toBe(1);
  });

  it('a fresh rendering claim is left alone; a stale one is taken over', async () => {
    const id = await finalizedQuietly();
    await org.db.insert(documentRenders).values({ document_id: id, org_id: org.org.id, status: 'rendering', attempts: 1, started_at: new Date() });
    expect(await renderStoredDocument(org.db, org.org.id, id)).toBe('busy');
    await org.db
      .update(documentRenders)
      .set({ started_at: new Date(Date.now() - STALE_RENDERING_MS - 1000) })
      .where(eq(documentRenders.document_id, id));
    expect(await renderStoredDocument(org.db, org.org.id, id)).toBe('ready');
    expect((await renderRow(id))?.attempts).toBe(2);
  });

  it("a fresh claim of the same job (its run cut by a graceful stop, handed back) is taken over at once; another job's waits", async () => {
    const id = await finalizedQuietly();
    const jobId = randomUUID();
    await org.db.insert(documentRenders).values({ document_id: id, org_id: org.org.id, status: 'rendering', attempts: 1, started_at: new Date(), claimed_by_job: jobId });
    expect(await renderStoredDocument(org.db, org.org.id, id, { jobId: randomUUID() })).toBe('busy');
    expect(await renderStoredDocument(org.db, org.org.id, id, { jobId })).toBe('ready');
    expect(await renderRow(id)).toMatchObject({ status: 'ready', attempts: 2, claimed_by_job: jobId });
  });

  it('renders into S3-compatible storage through the SDK and streams it back', async () => {
    const s3 = await startFakeS3();
    setStorage(new S3Storage({ bucket: s3.bucket, endpoint: s3.endpoint, forcePathStyle: true, accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey }));
    try {
      const id = await finalizedQuietly();
      expect(await renderStoredDocument(org.db, org.org.id, id)).toBe('ready');
      const row = (await renderRow(id))!;
      expect(s3.objects.get(row.storage_key!)?.contentType).toBe('application/pdf');
      const res = await rawPdf(id);
      expect(res.status).toBe(200);
      expect(sha256Hex(Buffer.from(await res.arrayBuffer()))).toBe(row.sha256);
    } finally {
      setStorage(storage);
      await s3.close();
    }
  });
});

describe('a render whose worker died', () => {
  /** pg-boss's rows for this document's renders, oldest first. */
  const jobsOf = async (id: string) =>
    (
      (await org.db.execute(
        sql`select id, state from pgboss.job where name = ${renderDocumentJob.name} and data->>'document_id' = ${id} order by created_on, id`,
      )) as unknown as { rows: Array<{ id: string; state: string }> }
    ).rows;
  /**
   * The state a kill leaves: the document `rendering` under a claim taken `ago` ms back, and its job `active` since
   * then (written directly, as the worker had it when it died), at its attempt `retryCount + 1`. The finalization's
   * own job is dropped first.
   */
  async function killedWhileRendering(ago: number, retryCount = 0) {
    const id = await finalizedQuietly();
    const deadline = Date.now() + 10_000;
    while (quiet.has(id) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(quiet.has(id)).toBe(false);
    const startedAt = new Date(Date.now() - ago);
    const jobId = await org.db.transaction(async (tx) => {
      await tx.insert(documentRenders).values({ document_id: id, org_id: org.org.id, status: 'rendering', attempts: 1, started_at: startedAt });
      const job = await enqueueRender(tx, org.org.id, id);
      await tx.execute(
        sql`update pgboss.job set state = 'active', started_on = ${startedAt.toISOString()}::timestamptz, retry_count = ${retryCount} where name = ${renderDocumentJob.name} and id = ${job}`,
      );
      return job;
    });
    return { id, jobId };
  }

  it('is retried within a minute: the bound, from the job policy and pg-boss maintenance', () => {
    expect(RENDER_EXPIRY_SECONDS * 1000).toBe(STALE_RENDERING_MS);
    expect(RECOVERY_SECONDS).toBeLessThanOrEqual(60);
  });

  it('POST /render on a render stuck past its expiry queues a fresh job (one for two requests), which renders it', async () => {
    // Killed during its last attempt: pg-boss will not retry it, only this request recovers it.
    const { id, jobId } = await killedWhileRendering(10 * 60_000, renderDocumentJob.retryLimit);
    const before = (await jobsOf(id)).map((j) => j.id);
    expect(before).toContain(jobId);
    const [first, second] = [await render(id), await render(id)];
    expect([first.status, second.status]).toEqual([202, 202]);
    expect(first.body).toMatchObject({ document_id: id, attempts: 1 });
    const fresh = (await jobsOf(id)).filter((j) => !before.includes(j.id));
    expect(fresh).toHaveLength(1);
    await waitFor(id, 'ready', 10_000);
    expect(await renderRow(id)).toMatchObject({ attempts: 2, last_error: null });
    expect(await objectsOf(id)).toHaveLength(2);
  });

  it('POST /render leaves a render alone while its job is alive (active within its expiry)', async () => {
    const { id } = await killedWhileRendering(1_000);
    const before = await jobsOf(id);
    const res = await render(id);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ render_status: 'rendering', attempts: 1 });
    expect(await jobsOf(id)).toEqual(before);
  });

  it('without any request, pg-boss fails the dead job and its retry renders the document: measured', async () => {
    // The kill happened RENDER_EXPIRY_SECONDS + 1 s ago: the job has just expired, the maintenance has not run yet.
    const ago = (RENDER_EXPIRY_SECONDS + 1) * 1000;
    const { id, jobId } = await killedWhileRendering(ago);
    const killedAt = Date.now() - ago;
    await waitFor(id, 'ready', (RECOVERY_SECONDS + 5) * 1000 - ago);
    const recovery = (Date.now() - killedAt) / 1000;
    console.info(`[render recovery] ready ${recovery.toFixed(1)} s after the kill (bound ${RECOVERY_SECONDS} s)`);
    expect(recovery).toBeLessThan(60);
    expect((await jobsOf(id)).find((j) => j.id === jobId)?.state).toBe('completed');
    expect((await renderRow(id))?.attempts).toBe(2);
  }, 90_000);
});

describe('preview', () => {
  it('renders a draft on the fly, watermarked, and stores nothing', async () => {
    const draft = await api.draft(invoice());
    const res = await preview(draft.id);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('content-disposition')).toMatch(/^inline; filename="Facture-BROUILLON-[0-9a-f]{8}\.pdf"/);
    const pdf = Buffer.from(await res.arrayBuffer());
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(await renderRow(draft.id)).toBeUndefined();
    expect(await objectsOf(draft.id)).toEqual([]);
    await writeFile(path.join(dir, 'draft-preview.pdf'), pdf);
    if (hasPoppler) {
      const text = await textOf(pdf);
      expect(text).toContain('BROUILLON');
      expect(text).toContain('brouillon non numéroté');
    }
  });

  it('an English draft says DRAFT; a finalized document previews as its stored PDF would (with factur-x.xml)', async () => {
    const english = await api.contact({ company: 'Client Ltd', email: 'ap@client.example', preferred_language: 'en' });
    const draft = await api.draft(invoice({ contact_id: english.id }));
    const draftPdf = Buffer.from(await (await preview(draft.id)).arrayBuffer());
    const finalized = await api.issued(invoice());
    const res = await preview(finalized.id);
    expect(res.status).toBe(200);
    const pdf = Buffer.from(await res.arrayBuffer());
    if (hasPoppler) {
      expect(await textOf(draftPdf)).toContain('DRAFT');
      const file = path.join(dir, 'preview.pdf');
      await writeFile(file, pdf);
      expect((await run('pdfdetach', ['-list', file])).stdout).toContain('factur-x.xml');
      expect(await textOf(pdf)).not.toContain('BROUILLON');
    }
  });
});

describe('access', () => {
  it('401 without a key, 403 without the scope, 404 for another org, 422 for a bad query', async () => {
    const doc = await api.issued(invoice());
    for (const [handler, method, suffix] of [
      [pdfRoutes.pdf, 'GET', 'pdf'],
      [pdfRoutes.preview, 'GET', 'preview'],
      [pdfRoutes.render, 'POST', 'render'],
    ] as const) {
      const url = `/v1/invoices/${doc.id}/${suffix}`;
      expect((await call(handler, method, url, { params: { id: doc.id } })).status, `${suffix} without key`).toBe(401);
      const contactsOnly = await org.key(['contacts:read']);
      expect((await call(handler, method, url, { token: contactsOnly, params: { id: doc.id } })).body.code, suffix).toBe('forbidden');
      const otherToken = await other.key();
      expect((await call(handler, method, url, { token: otherToken, params: { id: doc.id } })).status, `${suffix} cross-org`).toBe(404);
      expect((await call(handler, method, `/v1/invoices/nope/${suffix}`, { token: api.token, params: { id: 'nope' } })).status).toBe(404);
    }
    const readOnly = await org.key(['invoice:read']);
    expect((await render(doc.id, readOnly)).status).toBe(403);
    expect((await get(doc.id, {}, {}, readOnly)).status).not.toBe(403);
    const bad = await get(doc.id, {}, { download: 'maybe' });
    expect(bad.status).toBe(422);
    expect(bad.body.field).toBe('download');
    const draft = await api.draft(invoice());
    expect((await render(draft.id)).body).toMatchObject({ code: 'not_finalized' });
  });

  it('the three operations are in the OpenAPI document', () => {
    const doc = buildOpenApiDocument('http://localhost:3000') as unknown as { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>> };
    expect(Object.keys(doc.paths['/v1/invoices/{id}/pdf']!.get!.responses['200']!.content!)).toEqual(['application/pdf']);
    expect(doc.paths['/v1/invoices/{id}/pdf']!.get!.responses['409']).toBeDefined();
    expect(doc.paths['/v1/invoices/{id}/preview']!.get).toBeDefined();
    expect(doc.paths['/v1/invoices/{id}/render']!.post!.responses['202']).toBeDefined();
  });

  it('keys are built from ids only', async () => {
    const doc = await api.issued(invoice());
    await waitFor(doc.id, 'ready');
    const row = (await renderRow(doc.id))!;
    expect(row.storage_key).toMatch(new RegExp(`^documents/${org.org.id}/${doc.id}/[0-9a-f-]{36}\\.pdf$`));
    const object = await storage.get(row.storage_key!);
    expect(sha256Hex(await readAll(object!.body))).toBe(row.sha256);
    const [count] = await org.db
      .select({ n: sql<number>`count(*)::int` })
      .from(documentRenders)
      .where(and(eq(documentRenders.org_id, org.org.id), eq(documentRenders.document_id, doc.id)));
    expect(count!.n).toBe(1);
  });
});
