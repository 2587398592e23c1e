import { randomUUID } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import { deflateSync } from 'node:zlib';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { signatureEnvelopes, signatureFields, signatureSigners } from '@/db/schema';
import { loadSealingIdentity } from '@/lib/domain/signature/certificate';
import { composeSignedPdf } from '@/lib/domain/signature/compose';
import { sealPdf } from '@/lib/domain/signature/seal';
import { checkSeal } from '@/lib/domain/signature/verify';
import { percentile } from './lib/fake-contacts';
import { size, sizeFromEnv } from './lib/smoke';

/**
 * Issue 18's figure, in-process (no database, no storage): what the signature.seal job does to the PDF of a completed
 * envelope — composite a 20-page contract with 3 signers (initials on every page, a signature, a date and a name each,
 * one signature drawn as a 600×200 PNG) and its signature page, then seal it PAdES-B with the development certificate.
 * p50/p95 over RUNS runs after a warm-up, and the process's peak resident memory. Each sealed file is checked by the
 * verifier once (outside the timing); a file that does not verify exits non-zero. BENCH_SMOKE=1: one run after one
 * warm-up.
 */
const RUNS = sizeFromEnv('RUNS', 50, 1);
const WARM_UP = size(3, 1);
const PAGES = 20;

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function contract(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let p = 1; p <= PAGES; p += 1) {
    const page = doc.addPage([595.28, 841.89]);
    page.drawText(`Contrat de prestation — page ${p} / ${PAGES}`, { x: 50, y: 790, size: 14, font });
    for (let l = 0; l < 45; l += 1) page.drawText(`Article ${p}.${l + 1} — Le prestataire s’engage à exécuter la mission décrite en annexe.`, { x: 50, y: 760 - l * 15, size: 9, font });
  }
  return doc.save();
}

/** A PNG (RGBA) of a stroke, as the signing page's canvas sends one. */
function drawnSignature(width = 600, height = 200): string {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), 8 + data.length);
    return out;
  };
  const raw = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y += 1) {
    const x = Math.round(width / 2 + (width / 2.5) * Math.sin(y / 12));
    for (let dx = -3; dx <= 3; dx += 1) {
      const i = y * (width * 4 + 1) + 1 + Math.min(width - 1, Math.max(0, x + dx)) * 4;
      raw[i + 3] = 255;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  const png = Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
  return `data:image/png;base64,${png.toString('base64')}`;
}

type EnvelopeRow = typeof signatureEnvelopes.$inferSelect;
type SignerRow = typeof signatureSigners.$inferSelect;
type FieldRow = typeof signatureFields.$inferSelect;

const now = new Date();
const envelopeId = randomUUID();
const orgId = randomUUID();
const envelope = {
  id: envelopeId,
  org_id: orgId,
  status: 'completed',
  subject: 'Contrat de prestation 2026',
  document_hash: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  completed_at: now,
  consent_text_version: '2026-11-26',
} as EnvelopeRow;
const drawn = drawnSignature();
const signers = ['Alice Martin', 'Bob Durand', 'Chloé Petit'].map(
  (name, i) =>
    ({
      id: randomUUID(),
      email: `signataire${i + 1}@exemple.fr`,
      full_name: name,
      verification_method: i === 2 ? 'sms_otp' : 'email_otp',
      verified_at: now,
      consent_given_at: now,
      consent_text_version: '2026-11-26',
      signed_at: now,
      signed_ip: `203.0.113.${i + 10}`,
      signed_user_agent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 Safari/604.1',
      signature_kind: i === 1 ? 'drawn' : 'typed',
      signature_value: i === 1 ? drawn : name,
    }) as SignerRow,
);
let position = 0;
const field = (signer: SignerRow, type: FieldRow['type'], page: number, x: number, y: number, width: number, height: number, value: string | null = null) =>
  ({ id: randomUUID(), signer_id: signer.id, type, page, x, y, width, height, origin: 'api', value, position: position++ }) as FieldRow;
const fields = signers.flatMap((s, i) => [
  ...Array.from({ length: PAGES }, (_, p) => field(s, 'initials', p + 1, 0.6 + i * 0.1, 0.94, 0.08, 0.04, s.full_name!.replace(/[^A-ZÉ]/g, ''))),
  field(s, 'signature', PAGES, 0.05 + i * 0.31, 0.75, 0.28, 0.1),
  field(s, 'name', PAGES, 0.05 + i * 0.31, 0.86, 0.28, 0.03),
  field(s, 'date', PAGES, 0.05 + i * 0.31, 0.9, 0.28, 0.03, '26/11/2026'),
]);

const original = await contract();
const identity = loadSealingIdentity();
const once = async () => {
  const composed = await composeSignedPdf({ original, envelope, signers, fields, documentName: 'contrat.pdf' });
  return sealPdf(composed, identity, { reason: 'bench', location: 'Paraphe', name: identity.subject, contactInfo: '', signingTime: now });
};

console.log(`signature seal bench: ${PAGES} pages, ${signers.length} signers, ${fields.length} fields; ${RUNS} runs after ${WARM_UP} warm-up`);
console.log(`machine: ${availableParallelism()} CPUs, load ${loadavg().map((l) => l.toFixed(2)).join(' ')}; original ${(original.length / 1024).toFixed(0)} KiB`);
for (let i = 0; i < WARM_UP; i += 1) await once();
const sample = await once();
const check = checkSeal(sample, { sha256: null, completedAt: now, instanceFingerprint: identity.fingerprint });
if (!check.ok) throw new Error(`the sealed file does not verify: ${check.errors.join('; ')}`);
const times: number[] = [];
let peakRss = process.memoryUsage().rss;
for (let i = 0; i < RUNS; i += 1) {
  const t0 = performance.now();
  await once();
  times.push(performance.now() - t0);
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}
const round = (n: number) => Math.round(n);
console.log(`composite + seal: p50 ${round(percentile(times, 50))} ms, p95 ${round(percentile(times, 95))} ms, max ${round(Math.max(...times))} ms`);
console.log(`signed PDF ${(sample.length / 1024).toFixed(0)} KiB; verified by the seal checker: ${check.ok}`);
console.log(`peak RSS ${mb(Math.max(peakRss, process.resourceUsage().maxRSS * 1024))} (sampled ${mb(peakRss)})`);
