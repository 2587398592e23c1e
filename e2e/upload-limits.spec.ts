import { type APIRequestContext, expect, test } from '@playwright/test';
import { PDFDocument } from 'pdf-lib';
import { DEMO } from './helpers';

/*
 * Issue 33: a signature document takes up to 20 MB (MAX_PDF_BYTES), but Next.js's proxy cut bodies at 10 MB, so an
 * upload between the two was a 400 invalid_multipart. Only the built server shows it (the unit tests call the route
 * directly): next.config.mjs's REQUEST_BODY_LIMIT must let the whole body through, and a file over the limit must still
 * be the route's 413. No browser: the session is signed in through next-auth's form post.
 */
const MB = 1024 * 1024;

/** A valid one-page PDF of exactly `size` bytes: an unreferenced stream of zeros makes up the weight. */
async function pdfOf(size: number): Promise<Buffer> {
  const build = async (padding: number) => {
    const pdf = await PDFDocument.create();
    pdf.addPage([595, 842]);
    pdf.context.register(pdf.context.stream(new Uint8Array(padding)));
    return Buffer.from(await pdf.save({ useObjectStreams: false }));
  };
  // The stream's length is written in decimal: a second pass lands on the exact size.
  let padding = size - (await build(0)).length;
  for (;;) {
    const bytes = await build(padding);
    if (bytes.length === size) return bytes;
    padding += size - bytes.length;
  }
}

let staff: APIRequestContext;
let origin: string;

/** The staff session without a browser: next-auth's CSRF token, then its credentials callback, as the login form posts. */
test.beforeAll(async ({ playwright, baseURL }) => {
  origin = baseURL!;
  staff = await playwright.request.newContext({ baseURL });
  const { csrfToken } = (await (await staff.get('/api/auth/csrf')).json()) as { csrfToken: string };
  const signedIn = await staff.post('/api/auth/callback/credentials', { form: { csrfToken, email: DEMO.email, password: DEMO.password, callbackUrl: `${origin}/` }, maxRedirects: 0 });
  expect(signedIn.headers().location ?? '', 'signed in').not.toContain('error');
  expect((await staff.get('/v1/contacts?limit=1')).status()).toBe(200);
});
test.afterAll(() => staff?.dispose());

const upload = (file: Buffer) =>
  staff.post('/v1/signature/documents', {
    multipart: { file: { name: 'lourd.pdf', mimeType: 'application/pdf', buffer: file } },
    headers: { Origin: origin },
    timeout: 60_000,
  });

test('POST /v1/signature/documents: a 19.9 MB PDF is stored, one byte over 20 MB is 413 payload_too_large', async () => {
  const heavy = await pdfOf(Math.floor(19.9 * MB));
  const stored = await upload(heavy);
  expect(stored.status(), await stored.text()).toBe(201);
  expect(await stored.json()).toMatchObject({ byte_size: heavy.length, page_count: 1 });

  const over = await upload(await pdfOf(20 * MB + 1));
  expect(over.status()).toBe(413);
  expect(await over.json()).toMatchObject({ code: 'payload_too_large', field: 'file' });
});
