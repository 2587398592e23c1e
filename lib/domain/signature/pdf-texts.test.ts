import { execFile, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signatureEnvelopes, signatureFields } from '@/db/schema';
import { getStorage, LocalStorage, readAll, setStorage } from '@/lib/platform/storage';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { printableText } from './compose';
import { sealEnvelope } from './seal-job';
import { consentToSign, declineToSign, fillSignerField, signEnvelope } from './signer-api';
import { sentEnvelope, tokenOf, uploadedPdf } from './testing/signer';

/*
 * Issue 35, item 13: what the signed PDF and the proof print, read back with poppler's pdftotext as a reader's viewer
 * would show it: a date field as 01/12/2026 (stored 2026-12-01), the proof without « ? » for the chain's arrow, with
 * the document's title and uploaded name rather than a file of ours, and its states in French.
 */
const run = promisify(execFile);
const hasPdftotext = spawnSync('pdftotext', ['-v']).error === undefined;
if (!hasPdftotext) console.warn('[pdf-texts.test] pdftotext (poppler-utils) is not installed: the PDFs’ texts are not read back');

let dir = '';
let org: TestOrg;
let documentId: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'paraphe-sign-texts-'));
  setStorage(new LocalStorage(dir));
  org = await createTestOrg('Atelier Texte');
  documentId = await uploadedPdf(org);
});
afterAll(async () => {
  setStorage(undefined);
  if (dir) await rm(dir, { recursive: true, force: true });
});

const ctx = { ip: '203.0.113.10', userAgent: 'vitest-texts' };

/** A stored PDF's text in reading order, whitespace collapsed. */
async function textOf(key: string) {
  const object = await getStorage().get(key);
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.pdf`);
  await writeFile(file, await readAll(object!.body));
  return (await run('pdftotext', ['-raw', file, '-'])).stdout.replace(/\s+/g, ' ');
}

const envelopeRow = async (id: string) => (await org.db.select().from(signatureEnvelopes).where(eq(signatureEnvelopes.id, id)))[0]!;

describe.skipIf(!hasPdftotext)('the signed PDF and the proof, as read', () => {
  it('a date field prints 01/12/2026; the proof has no « ? », no file of ours, French states', async () => {
    const { envelopeId, signerIds } = await sentEnvelope(org, documentId, [{ email: 'date.reader@client.test', full_name: 'Dina Date', verification_method: 'none', fields: ['signature', 'date'] }], {
      subject: 'Bail commercial 2027',
    });
    const token = (await tokenOf(org, signerIds[0]!))!;
    const dateField = (await org.db.select().from(signatureFields).where(eq(signatureFields.envelope_id, envelopeId))).find((f) => f.type === 'date')!;
    await consentToSign(org.db, token, ctx);
    await fillSignerField(org.db, token, dateField.id, '2026-12-01', ctx);
    await signEnvelope(org.db, token, { kind: 'typed', value: 'Dina Date' }, ctx);
    expect(await sealEnvelope(org.db, envelopeId)).toBe('sealed');
    const row = await envelopeRow(envelopeId);

    const signed = await textOf(row.signed_document_key!);
    expect(signed).toContain('01/12/2026');
    expect(signed).not.toContain('2026-12-01');
    expect(signed).toContain('saisie / typed');

    const proof = await textOf(row.proof_key!);
    expect(proof).toContain('statut / status : signée / completed');
    expect(proof).toContain('a signé / signed');
    expect(proof).toContain('Signé (signer.signed)');
    expect(proof).toContain('signature saisie / typed');
    expect(proof).toContain('circuit / routing : séquentiel / sequential');
    // The document as its people know it: the subject, then the name it was uploaded with.
    expect(proof).toContain('Bail commercial 2027');
    expect(proof).toContain('Fichier / File : contrat.pdf');
    expect(proof).not.toContain('docs/signature.md');
    expect(proof).not.toContain(`signature/${org.org.id}/`);
    // The chain's link in words, not an arrow the font lacks (it printed as « ? »).
    expect(proof).toContain('précédente / prev_hash');
    expect(proof).not.toContain('?');
    expect(proof).not.toContain('←');
    expect(proof).toContain('signataire / signer : date.reader@client.test');
  });

  it('a declined envelope’s proof says « refusée » and « a refusé »', async () => {
    const { envelopeId, signerIds } = await sentEnvelope(org, documentId, [{ email: 'no.reader@client.test', verification_method: 'none' }]);
    await declineToSign(org.db, (await tokenOf(org, signerIds[0]!))!, 'Le prix a changé.', ctx);
    expect(await sealEnvelope(org.db, envelopeId)).toBe('proof_only');
    const proof = await textOf((await envelopeRow(envelopeId)).proof_key!);
    expect(proof).toContain('refusée / declined');
    expect(proof).toContain('a refusé / declined');
    expect(proof).not.toContain('?');
  });
});

describe('printableText (the standard fonts’ WinAnsi)', () => {
  it('spells arrows and comparison signs, keeps French, and marks only what has no spelling', async () => {
    const font = await (await PDFDocument.create()).embedFont(StandardFonts.Helvetica);
    expect(printableText(font, 'a ← b → c ≤ d ≥ e')).toBe('a <- b -> c <= d >= e');
    expect(printableText(font, 'Élodie « Œuvre » déjà — 12 €')).toBe('Élodie « Œuvre » déjà — 12 €');
    expect(printableText(font, '한')).toBe('?');
  });
});
