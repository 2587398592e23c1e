import { eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { signatureDocuments, type signatureEnvelopes } from '@/db/schema';
import { conflict } from '@/lib/platform/errors';
import { readStoredPdf } from '@/lib/domain/pdf';
import { getStorage, type StoredBody, sha256Hex } from '@/lib/platform/storage';
import { evidenceOf } from './evidence-state';
import { envelopeForEvidence } from './fields';

type EnvelopeRow = typeof signatureEnvelopes.$inferSelect;

/** A PDF to answer with: its ETag (SHA-256), its name, and its bytes opened only when the client lacks them. */
export interface EnvelopePdf {
  etag: string;
  fileName: string;
  open(): Promise<StoredBody>;
}

function stored(key: string, etag: string, fileName: string): EnvelopePdf {
  return {
    etag,
    fileName,
    async open() {
      const object = await getStorage().get(key);
      // The row says it is stored: an absent object is a storage fault, not a state the client can wait out.
      if (!object) throw new Error(`signature file missing from storage (key ${key})`);
      return object;
    },
  };
}

const stem = (name: string) => name.replace(/\.pdf$/i, '');

/** `GET …/document`: the PDF signed, as stored (for a quote or invoice not sent yet, its current render). */
export async function originalPdf(db: Db, orgId: string, envelopeId: string): Promise<EnvelopePdf> {
  const envelope = await envelopeForEvidence(db, orgId, envelopeId);
  if (envelope.document_id) {
    const [doc] = await db.select().from(signatureDocuments).where(eq(signatureDocuments.id, envelope.document_id));
    if (doc) return stored(doc.storage_key, doc.sha256, doc.name);
  }
  const pdf = envelope.source_kind === 'document' ? null : await readStoredPdf(db, orgId, envelope.source_document_id);
  if (!pdf) throw conflict('pdf_not_ready', 'The PDF of the quote or invoice is not rendered yet.');
  const bytes = pdf.content;
  return {
    etag: sha256Hex(bytes),
    fileName: pdf.filename,
    async open() {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new Uint8Array(bytes));
          controller.close();
        },
      });
      return { key: '', size: bytes.length, sha256: sha256Hex(bytes), contentType: 'application/pdf', body };
    },
  };
}

async function documentName(db: Db, documentId: string | null): Promise<string> {
  if (!documentId) return 'document';
  const [doc] = await db.select({ name: signatureDocuments.name }).from(signatureDocuments).where(eq(signatureDocuments.id, documentId));
  return stem(doc?.name ?? 'document');
}

/**
 * A finished envelope whose evidence is not stored: 409 `evidence_pending` while the seal job has it, `evidence_failed`
 * once it failed for good (POST …/seal retries). Never a 200 nor a plain "unavailable" that reads as "there is none".
 */
function requireEvidence(e: EnvelopeRow) {
  const evidence = evidenceOf(e);
  if (evidence?.status === 'failed') {
    throw conflict('evidence_failed', `The seal job failed for good (${evidence.error_code ?? 'internal_error'}): no signed PDF nor proof until POST /v1/signature/envelopes/${e.id}/seal succeeds.`);
  }
  if (evidence?.status === 'pending') throw conflict('evidence_pending', 'The signed PDF and the proof are being made by the seal job; try again in a moment.');
}

/** `GET …/signed`: the composited, sealed PDF; 409 `signed_document_unavailable` until it exists (none without positioned fields). */
export async function signedPdf(db: Db, orgId: string, envelopeId: string): Promise<EnvelopePdf> {
  const e = await envelopeForEvidence(db, orgId, envelopeId);
  if (!e.signed_document_key || !e.signed_document_sha256) {
    if (e.status === 'completed') requireEvidence(e);
    const why = e.status !== 'completed' ? `the envelope is ${e.status}, not completed` : 'the envelope has no positioned field (then only the proof is made)';
    throw conflict('signed_document_unavailable', `No signed PDF: ${why}.`);
  }
  return stored(e.signed_document_key, e.signed_document_sha256, `${await documentName(db, e.document_id)} - signé.pdf`);
}

/** `GET …/proof`: the evidence report, once completed or declined (409 `proof_unavailable` before, `evidence_*` while it is not stored). */
export async function proofPdf(db: Db, orgId: string, envelopeId: string): Promise<EnvelopePdf> {
  const e = await envelopeForEvidence(db, orgId, envelopeId);
  if (!e.proof_key) {
    requireEvidence(e);
    throw conflict('proof_unavailable', `No proof yet: the envelope is ${e.status}, not completed or declined.`);
  }
  const head = await getStorage().head(e.proof_key);
  if (!head) throw new Error(`signature proof missing from storage (key ${e.proof_key})`);
  return stored(e.proof_key, head.sha256, `preuve-${e.id}.pdf`);
}
