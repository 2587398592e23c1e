import { and, eq, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { Db } from '@/db/client';
import { documents, einvoicingDocumentStates, einvoicingTransmissions } from '@/db/schema';
import { loadDocument } from '@/lib/domain/documents';
import { enqueue } from '@/lib/platform/jobs';
import { readStoredPdf } from '@/lib/domain/pdf';
import { sha256Hex } from '@/lib/platform/storage';
import { connectorForOrg } from '../connector';
import { emitEncaisseeJob } from '../lifecycle/jobs';
import { type PaConnector, PaError, type SubmittedFlow } from '../port';
import { frenchBusinessBuyer, openTransmission, setTransmissionStatus } from './state';

/** How long an attempt holds its transmission: past it, a worker that died is presumed dead and the row is taken over. */
export const SUBMISSION_LEASE_SECONDS = 120;

/**
 * Thrown to have the job retried later without failing the transmission (the PA is down, another attempt holds the
 * lease; or a direct call before the PDF is stored — the job itself runs once pdf announced it).
 */
export class RetryLater extends Error {
  override name = 'RetryLater';
}

export type SubmitOutcome = 'sent' | 'failed' | 'skipped';

export interface SubmitOptions {
  /** The job's last attempt: a failure now is final (`failed`, reason kept) instead of a retry. */
  lastAttempt?: boolean;
  /** The org's connector (tests pass one with short timeouts); default connectorForOrg. */
  connector?: PaConnector;
  now?: () => Date;
}

const key = (orgId: string, documentId: string) => and(eq(einvoicingTransmissions.org_id, orgId), eq(einvoicingTransmissions.document_id, documentId));

/**
 * The transmission fails for good: the reason kept on its row (created if no attempt reached the PA yet and the file
 * is known), the document `failed` (and its event).
 */
async function fail(db: Db, orgId: string, documentId: string, reason: string, now: Date, sha256: string | null = null) {
  await db.transaction(async (tx) => {
    const set = { status: 'failed' as const, last_error: reason.slice(0, 2000), failed_at: now, locked_until: null, next_attempt_at: null, updated_at: now };
    if (sha256) {
      const id = uuidv7();
      await tx
        .insert(einvoicingTransmissions)
        .values({ id, org_id: orgId, document_id: documentId, file_sha256: sha256, tracking_id: id, ...set })
        .onConflictDoUpdate({ target: einvoicingTransmissions.document_id, set });
    } else {
      await tx.update(einvoicingTransmissions).set(set).where(key(orgId, documentId));
    }
    await setTransmissionStatus(tx, orgId, documentId, 'failed');
  });
  return 'failed' as const;
}

/**
 * Records the intent before the PA is called: the row (its tracking id stable for the document's life), `sending`,
 * the attempt counted and the row leased. Null when there is nothing to do; `busy` while another attempt holds a
 * live lease (this one is retried later: if that worker died, its lease runs out).
 */
async function claim(db: Db, orgId: string, documentId: string, sha256: string, buyerAddress: string, now: Date) {
  return db.transaction(async (tx) => {
    const [state] = await tx
      .select({ status: einvoicingDocumentStates.transmission_status })
      .from(einvoicingDocumentStates)
      .where(and(eq(einvoicingDocumentStates.org_id, orgId), eq(einvoicingDocumentStates.document_id, documentId)))
      .for('update');
    if (state?.status !== 'pending' && state?.status !== 'sending') return null;
    const [held] = await tx.select().from(einvoicingTransmissions).where(key(orgId, documentId)).for('update');
    if (held?.locked_until && held.locked_until > now) return 'busy' as const;
    const lease = new Date(now.getTime() + SUBMISSION_LEASE_SECONDS * 1000);
    const id = uuidv7();
    const [row] = await tx
      .insert(einvoicingTransmissions)
      .values({ id, org_id: orgId, document_id: documentId, file_sha256: sha256, tracking_id: id, status: 'sending', buyer_address: buyerAddress, attempts: 1, locked_until: lease, submitted_at: now })
      .onConflictDoUpdate({
        target: einvoicingTransmissions.document_id,
        set: { status: 'sending', buyer_address: buyerAddress, attempts: sql`${einvoicingTransmissions.attempts} + 1`, locked_until: lease, updated_at: now },
      })
      .returning();
    await setTransmissionStatus(tx, orgId, documentId, 'sending');
    // A row that existed (an earlier attempt recorded its intent) may have reached the PA: search before submitting.
    return { row: row!, earlier: !!held };
  });
}

/**
 * Submits a finalized document's stored Factur-X to the PA, once (DESIGN §11, docs/einvoicing.md "Émission et cycle
 * de vie"). Idempotent on the document and its file: the transmission row carries one tracking id for the document's
 * life, recorded before the PA is called; an attempt that finds an earlier intent (a retry, a job run twice, a worker
 * killed mid-upload) first searches the PA for a flow with that tracking id and only submits when there is none.
 * The buyer is looked up in the directory first: an unknown buyer fails at once, with the reason kept. The reasons
 * Paraphe words are in French (staff read them on the document page); the PA's own errors are kept as it gave them.
 */
export async function submitTransmission(db: Db, orgId: string, documentId: string, options: SubmitOptions = {}): Promise<SubmitOutcome> {
  const now = options.now ?? (() => new Date());
  const doc = await loadDocument(db, orgId, documentId);
  if (doc.transmission_status !== 'pending' && doc.transmission_status !== 'sending') return 'skipped';
  // The subscription to invoice.finalized opens it; the submission may run first (the render was quicker).
  await openTransmission(db, orgId, documentId);
  const buyer = frenchBusinessBuyer(doc.client_snapshot);
  if (!buyer) return fail(db, orgId, documentId, 'Le client n’a ni SIREN ni SIRET : il ne peut pas être trouvé dans l’annuaire.', now());

  if (doc.render_status === 'failed') return fail(db, orgId, documentId, 'Le PDF Factur-X n’a pas pu être généré (voir la section PDF du document).', now());
  const pdf = await readStoredPdf(db, orgId, documentId);
  if (!pdf) {
    if (options.lastAttempt) return fail(db, orgId, documentId, 'Le PDF Factur-X n’était toujours pas prêt après toutes les tentatives.', now());
    throw new RetryLater(`The Factur-X PDF of ${doc.number} is not stored yet (render_status ${doc.render_status}).`);
  }
  const sha256 = sha256Hex(pdf.content);

  try {
    const pa = options.connector ?? (await connectorForOrg(db, orgId));
    const entry = await pa.lookup({ siren: buyer.siren, siret: buyer.siret });
    if (!entry) {
      const who = `SIREN ${buyer.siren}${buyer.siret ? ` (SIRET ${buyer.siret})` : ''}`;
      return fail(db, orgId, documentId, `Client inconnu de l’annuaire : ${who} n’y figure pas, aucune plateforme agréée ne reçoit ses factures.`, now(), sha256);
    }
    if (entry.platformStatus === 'Disabled') {
      return fail(db, orgId, documentId, `La plateforme du client (${entry.electronicAddress}) ne reçoit pas encore de factures (ligne d’annuaire désactivée).`, now(), sha256);
    }
    const claimed = await claim(db, orgId, documentId, sha256, entry.electronicAddress, now());
    if (!claimed) return 'skipped';
    if (claimed === 'busy') throw new RetryLater(`Another attempt is submitting ${doc.number} right now.`);
    const { row } = claimed;
    let flow: SubmittedFlow | null = null;
    if (claimed.earlier) {
      const [found] = await pa.searchFlows({ trackingId: row.tracking_id, limit: 1 });
      if (found) flow = { flowId: found.flowId, trackingId: found.trackingId, submittedAt: found.submittedAt };
    }
    flow ??= await pa.submitFlow(pdf.content, sha256, {
      trackingId: row.tracking_id,
      name: pdf.filename,
      syntax: 'Factur-X',
      processingRule: 'B2B',
    });
    const flowId = flow.flowId;
    await db.transaction(async (tx) => {
      const at = now();
      await tx
        .update(einvoicingTransmissions)
        .set({ status: 'sent', flow_id: flowId, file_sha256: sha256, sent_at: at, locked_until: null, last_error: null, next_attempt_at: null, updated_at: at })
        .where(key(orgId, documentId));
      await setTransmissionStatus(tx, orgId, documentId, 'sent', flowId);
      // Paid before it was transmitted: its 212 Encaissée goes now (invoice.paid found it not sent yet).
      const [paid] = await tx.select({ status: documents.status }).from(documents).where(and(eq(documents.org_id, orgId), eq(documents.id, documentId)));
      if (paid?.status === 'paid') await enqueue(tx, emitEncaisseeJob, { org_id: orgId, document_id: documentId });
    });
    return 'sent';
  } catch (err) {
    if (err instanceof RetryLater) throw err;
    const lastError = err instanceof Error ? err.message : String(err);
    const retryable = err instanceof PaError ? err.retryable : false;
    if (!retryable || options.lastAttempt) return fail(db, orgId, documentId, lastError, now(), sha256);
    // Worth another try: the reason is kept, the lease released, the job retries with its back-off.
    await db
      .update(einvoicingTransmissions)
      .set({ last_error: lastError.slice(0, 2000), locked_until: null, updated_at: now() })
      .where(key(orgId, documentId));
    throw new RetryLater(lastError);
  }
}
