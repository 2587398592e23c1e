import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { and, asc, eq, gt, inArray, isNotNull, isNull } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { documentItems, documents, hashChains } from '@/db/schema';
import type { Conn, DocumentRow, ItemRow } from './documents';

/**
 * The NF203-style seal of finalized documents (docs/hash-chain.md is the auditor's version of this file):
 *
 *   content_hash = sha256_hex( (prev_hash ?? "") + "\n" + JCS(payload) )
 *
 * JCS is RFC 8785 canonical JSON (the `canonicalize` package), prev_hash the content_hash of the org's
 * previous finalized document (null for the first), payload the legal content below. The payload holds only
 * stored values, so a verifier needs a JSON canonicalizer and SHA-256, not our totals code.
 */
export const PAYLOAD_FORMAT = 'paraphe.billing-document.v1';

export function chainPayload(doc: DocumentRow, items: readonly ItemRow[]) {
  if (!doc.finalized_at) throw new Error(`document ${doc.id} is not finalized`);
  const ordered = [...items].sort((a, b) => a.position - b.position || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return {
    format: PAYLOAD_FORMAT,
    id: doc.id,
    org_id: doc.org_id,
    type: doc.type,
    number: doc.number,
    issue_date: doc.issue_date,
    due_date: doc.due_date,
    service_date: doc.service_date,
    validity_date: doc.validity_date,
    finalized_at: doc.finalized_at.toISOString(),
    currency: 'EUR',
    seller: doc.seller_snapshot,
    buyer: doc.client_snapshot,
    title: doc.title,
    description: doc.description,
    notes: doc.notes,
    items: ordered.map((it) => ({
      id: it.id,
      position: it.position,
      kind: it.kind,
      description: it.description,
      details: it.details,
      quantity: it.quantity,
      unit: it.unit,
      unit_price: it.unit_price,
      vat_rate: it.vat_rate,
      vat_category: it.vat_category,
      product_id: it.product_id,
      total_ht: it.total_ht,
      total_ttc: it.total_ttc,
    })),
    total_ht: doc.total_ht,
    total_tva: doc.total_tva,
    total_ttc: doc.total_ttc,
    converted_from_id: doc.converted_from_id,
    parent_devis_id: doc.parent_devis_id,
    avoir_for_id: doc.avoir_for_id,
    acompte_percentage: doc.acompte_percentage,
    deposit_request_percentage: doc.deposit_request_percentage,
    credit_reason_code: doc.credit_reason_code,
    credit_reason_text: doc.credit_reason_text,
    delivery_address: doc.delivery_address,
    payment_terms: doc.payment_terms,
    payment_method: doc.payment_method,
    discount_terms: doc.discount_terms,
    execution_timeline: doc.execution_timeline,
    operation_nature: doc.operation_nature,
    vat_exigibility: doc.vat_exigibility,
    payment_plan_kind: doc.payment_plan_kind,
    payment_plan_config: doc.payment_plan_config,
  };
}

export function canonicalPayload(doc: DocumentRow, items: readonly ItemRow[]): string {
  const jcs = canonicalize(chainPayload(doc, items));
  if (jcs === undefined) throw new Error('payload cannot be canonicalized');
  return jcs;
}

export function contentHash(prevHash: string | null, canonical: string): string {
  return createHash('sha256')
    .update(`${prevHash ?? ''}\n${canonical}`, 'utf8')
    .digest('hex');
}

export type ChainHead = typeof hashChains.$inferSelect;

/**
 * Locks the org's chain head for the rest of the transaction (created on first use). Every finalization takes
 * this lock before anything else chain- or number-related, so finalizations of one org run one after the other
 * and each links to the one before.
 */
export async function lockChain(conn: Conn, orgId: string): Promise<ChainHead> {
  await conn.insert(hashChains).values({ org_id: orgId }).onConflictDoNothing();
  const [head] = await conn.select().from(hashChains).where(eq(hashChains.org_id, orgId)).for('update');
  return head!;
}

export type ChainBreak =
  | 'unchained'
  | 'index_gap'
  | 'prev_hash_mismatch'
  | 'content_hash_mismatch'
  | 'head_mismatch';

export interface ChainReport {
  org_id: string;
  ok: boolean;
  /** Finalized documents whose link was checked before the first break (all of them when ok). */
  verified: number;
  head_hash: string | null;
  first_broken: null | {
    reason: ChainBreak;
    chain_index: number | null;
    document_id: string | null;
    number: string | null;
    expected: string | null;
    actual: string | null;
  };
}

const BATCH = 500;

/**
 * Recomputes every hash of the org's chain, in chain order, and reports the first broken link: a document
 * outside the chain, a missing position, a prev_hash that is not the previous document's hash, a content_hash
 * that does not match the content, or a chain head that is not the last document (truncation).
 */
export async function verifyChain(db: Db, orgId: string): Promise<ChainReport> {
  const report = (verified: number, head: string | null, first_broken: ChainReport['first_broken'] = null): ChainReport => ({
    org_id: orgId,
    ok: first_broken === null,
    verified,
    head_hash: head,
    first_broken,
  });

  // A finalized document the chain does not reach (finalized_at set, no position) is a break by itself.
  const [orphan] = await db
    .select()
    .from(documents)
    .where(and(eq(documents.org_id, orgId), isNotNull(documents.finalized_at), isNull(documents.chain_index)))
    .limit(1);

  let prev: string | null = null;
  let expectedIndex = 1;
  for (;;) {
    const rows = await db
      .select()
      .from(documents)
      .where(and(eq(documents.org_id, orgId), isNotNull(documents.chain_index), gt(documents.chain_index, expectedIndex - 1)))
      .orderBy(asc(documents.chain_index))
      .limit(BATCH);
    if (rows.length === 0) break;
    const items = await db
      .select()
      .from(documentItems)
      .where(and(eq(documentItems.org_id, orgId), inArray(documentItems.document_id, rows.map((r) => r.id))));
    const byDoc = new Map<string, ItemRow[]>();
    for (const it of items) byDoc.set(it.document_id, [...(byDoc.get(it.document_id) ?? []), it]);

    for (const doc of rows) {
      const at = (reason: ChainBreak, expected: string | null, actual: string | null) =>
        report(expectedIndex - 1, prev, { reason, chain_index: doc.chain_index, document_id: doc.id, number: doc.number, expected, actual });
      if (doc.chain_index !== expectedIndex) return at('index_gap', String(expectedIndex), String(doc.chain_index));
      if (!doc.finalized_at) return at('unchained', 'finalized_at set', 'null');
      if (doc.prev_hash !== prev) return at('prev_hash_mismatch', prev, doc.prev_hash);
      const recomputed = contentHash(doc.prev_hash, canonicalPayload(doc, byDoc.get(doc.id) ?? []));
      if (recomputed !== doc.content_hash) return at('content_hash_mismatch', recomputed, doc.content_hash);
      prev = doc.content_hash;
      expectedIndex += 1;
    }
  }
  const verified = expectedIndex - 1;

  if (orphan) {
    return report(verified, prev, {
      reason: 'unchained',
      chain_index: null,
      document_id: orphan.id,
      number: orphan.number,
      expected: 'a chain_index',
      actual: null,
    });
  }
  const [head] = await db.select().from(hashChains).where(eq(hashChains.org_id, orgId));
  const headLength = head?.length ?? 0;
  const headHash = head?.head_hash ?? null;
  if (headLength !== verified || headHash !== prev) {
    return report(verified, prev, {
      reason: 'head_mismatch',
      chain_index: headLength,
      document_id: head?.head_document_id ?? null,
      number: null,
      expected: `${headLength} documents ending with ${headHash}`,
      actual: `${verified} documents ending with ${prev}`,
    });
  }
  return report(verified, prev);
}
