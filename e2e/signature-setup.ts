import AxeBuilder from '@axe-core/playwright';
import { type Browser, type BrowserContext, expect, type Page } from '@playwright/test';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { PHONE, phoneOverflow, rememberSecret } from './helpers';

/*
 * What the signature journeys share: envelopes made through /v1 as the staff session, the outbox read for the links
 * and codes, signers as other browsers (a phone by default, no session), axe on the signer's page.
 */

export type Json = Record<string, unknown>;

/** A staff request through the page's session (a same-origin write, as the back office makes); returns status and body. */
export function staffApi(page: Page) {
  const origin = () => new URL(page.url()).origin;
  const send = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, data?: unknown) => {
    const res = await page.request.fetch(path, { method, data, headers: { Origin: origin() } });
    const text = await res.text();
    return { status: res.status(), body: (text ? JSON.parse(text) : null) as Json & { data?: Json[] } };
  };
  const ok = async (method: 'GET' | 'POST' | 'PUT', path: string, data?: unknown) => {
    const res = await send(method, path, data);
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
    return res.body;
  };
  return { send, ok, get: (path: string) => ok('GET', path), post: (path: string, data: unknown = {}) => ok('POST', path, data), put: (path: string, data: unknown) => ok('PUT', path, data) };
}

/** A small two-page PDF, made here (no fixture to keep in step), uploaded as a signature document. */
export async function uploadDocument(page: Page, title: string): Promise<string> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const n of [1, 2]) {
    const p = pdf.addPage([595, 842]);
    p.drawText(`${title} — page ${n}`, { x: 60, y: 760, size: 20, font });
    p.drawText('Le prestataire et le client conviennent de ce qui suit.', { x: 60, y: 720, size: 12, font });
  }
  const res = await page.request.post('/v1/signature/documents', {
    multipart: { file: { name: `${title}.pdf`, mimeType: 'application/pdf', buffer: Buffer.from(await pdf.save()) } },
    headers: { Origin: new URL(page.url()).origin },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

export interface Envelope extends Json {
  id: string;
  status: string;
  signers: Array<{ id: string; email: string; status: string; otp_attempts: number }>;
}

/** A draft envelope around `documentId`, then sent. */
export async function sentEnvelope(page: Page, documentId: string, body: Json): Promise<Envelope> {
  const api = staffApi(page);
  const draft = (await api.post('/v1/signature/envelopes', { source_kind: 'document', source_document_id: documentId, ...body })) as Envelope;
  await api.post(`/v1/signature/envelopes/${draft.id}/send`);
  return draft;
}

/** A signer's link as integrators get it (POST …/signers/{id}/link); the token is remembered for the log audit. */
export async function signerLink(page: Page, envelopeId: string, signerId: string): Promise<string> {
  const { url } = (await staffApi(page).post(`/v1/signature/envelopes/${envelopeId}/signers/${signerId}/link`)) as { url: string };
  rememberSecret(tokenOf(url));
  return url;
}

export const tokenOf = (url: string) => url.split('/sign/')[1]?.split(/[?#]/)[0] ?? '';

/**
 * The text of the newest e-mail to `to` in the outbox whose subject matches, waiting for it to be written (e-mails
 * leave through the job queue). `page` is a staff page: the outbox is the org's.
 */
export async function newestMail(page: Page, to: string, subject: RegExp): Promise<string> {
  let text = '';
  await expect(async () => {
    await page.goto('/dev/mail');
    const row = page.getByRole('row').filter({ hasText: to }).filter({ has: page.getByRole('link', { name: subject }) }).first();
    await row.getByRole('link').first().click();
    await expect(page).toHaveURL(/\/dev\/mail\/[0-9a-f-]{36}$/);
    text = (await page.locator('pre').first().textContent()) ?? '';
  }).toPass({ timeout: 20_000, intervals: [250, 500, 1000] });
  return text;
}

/** How many e-mails to `to` the outbox holds (its first page). */
export async function mailCount(page: Page, to: string): Promise<number> {
  await page.goto('/dev/mail');
  return page.getByRole('row').filter({ hasText: to }).count();
}

/** The signing link in an e-mail's text. */
export function linkIn(text: string): string {
  const url = /https?:\/\/\S+\/sign\/[A-Za-z0-9_-]{43}/.exec(text)?.[0];
  expect(url, `a /sign link in:\n${text}`).toBeTruthy();
  rememberSecret(tokenOf(url!));
  return url!;
}

/** The 6-digit code in the newest code e-mail to `to`. */
export async function codeFor(page: Page, to: string): Promise<string> {
  const text = await newestMail(page, to, /code/i);
  const code = /\b(\d{6})\b/.exec(text)?.[1];
  expect(code, `a 6-digit code in:\n${text}`).toBeTruthy();
  return code!;
}

/** A signer: a browser of their own, no session; a phone unless told otherwise. */
export async function signerPage(browser: Browser, options: { viewport?: { width: number; height: number }; locale?: string } = {}) {
  const context: BrowserContext = await browser.newContext({
    viewport: options.viewport ?? PHONE,
    isMobile: !options.viewport,
    hasTouch: !options.viewport,
    locale: options.locale ?? 'fr-FR',
  });
  return context.newPage();
}

/** No WCAG 2.1 A/AA violation on the page as it is (the signer's, or any back-office page), and nothing wider than a phone when on one. */
export async function expectAccessible(page: Page, where: string) {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(violations.flatMap((v) => v.nodes.map((n) => `${where} · ${v.id} ${v.help} ${n.target.join(' ')}`))).toEqual([]);
  if (page.viewportSize()?.width === PHONE.width) expect((await phoneOverflow(page)).wider).toEqual([]);
}

/** The envelope as staff see it, polled until `status` (the seal and the turns run in jobs). */
export async function envelopeReaches(page: Page, id: string, status: string, timeout = 20_000): Promise<Envelope> {
  let envelope: Envelope | null = null;
  await expect
    .poll(
      async () => {
        envelope = (await staffApi(page).get(`/v1/signature/envelopes/${id}`)) as Envelope;
        return envelope.status;
      },
      { timeout, intervals: [250, 500, 1000, 2000] },
    )
    .toBe(status);
  return envelope!;
}

/** A drawn signature: a few strokes across the pad with the mouse (or finger: pointer events either way). */
export async function drawSignature(page: Page) {
  const pad = page.getByRole('img', { name: /Zone de dessin|Signature drawing area/ });
  const box = (await pad.boundingBox())!;
  await page.mouse.move(box.x + 20, box.y + box.height * 0.7);
  await page.mouse.down();
  for (const [fx, fy] of [[0.3, 0.3], [0.45, 0.75], [0.6, 0.35], [0.8, 0.6]] as const) await page.mouse.move(box.x + box.width * fx, box.y + box.height * fy, { steps: 4 });
  await page.mouse.up();
}
