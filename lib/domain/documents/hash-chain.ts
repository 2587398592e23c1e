import { createHash, randomUUID } from 'node:crypto';
import canonicalize from 'canonicalize';
import { and, asc, eq, gt, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { addDays, parisInstant } from '@/lib/platform/dates';
import { documentItems, documents, hashChains } from '@/db/schema';
import type { DocumentType } from '@/db/schema/billing';
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
      // Since migration 0017, only when chosen: the payload of a line without one is the v1 payload, unchanged.
      ...(it.vat_exemption_reason ? { vat_exemption_reason: it.vat_exemption_reason } : {}),
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

/**
 * The canonical payload of a draft about to be sealed, with the two values only the chain lock decides (its number,
 * its finalized_at) left as tokens: the sealing statement (billing_seal_document, migration 0037) puts their JSON
 * strings in place and hashes the result, which is canonicalPayload of the sealed row — RFC 8785 orders keys by name
 * alone, and writes a number (NUMBER_PATTERN) and an ISO instant as plain strings. Each token is a JSON string of a
 * fresh UUID, found exactly once in the template.
 */
export function sealingTemplate(draft: DocumentRow, items: readonly ItemRow[]): { jcs: string; numberToken: string; timeToken: string } {
  for (;;) {
    const nonce = randomUUID();
    const number = `paraphe-number-${nonce}`;
    const time = `paraphe-finalized-at-${nonce}`;
    const payload = { ...chainPayload({ ...draft, number, finalized_at: new Date(0) }, items), finalized_at: time };
    const jcs = canonicalize(payload);
    if (jcs === undefined) throw new Error('payload cannot be canonicalized');
    const numberToken = JSON.stringify(number);
    const timeToken = JSON.stringify(time);
    if (jcs.split(numberToken).length === 2 && jcs.split(timeToken).length === 2) return { jcs, numberToken, timeToken };
  }
}

export function contentHash(prevHash: string | null, canonical: string): string {
  return createHash('sha256')
    .update(`${prevHash ?? ''}\n${canonical}`, 'utf8')
    .digest('hex');
}

/** What the sealing statement answers: 'sealed', 'locked' (asked for the lock only) or 'replan' (another Paris day). */
export interface SealOutcome {
  outcome: 'sealed' | 'locked' | 'replan';
  /** The time read under the lock (or the one passed): finalized_at of the sealed document. */
  at: Date;
  /** The number taken ('sealed') or the series' next one ('locked'). */
  number: string | null;
  sequence: number | null;
  chain_index: number | null;
  prev_hash: string | null;
  content_hash: string | null;
  /** How long the statement waited for the chain head's and the counter's locks, by the database's clock. */
  waitedMs: number;
  /** How long it ran once it held them ('sealed' only): the part of the lock's hold that precedes the commit's. */
  heldMs: number | null;
}

export interface SealRequest {
  orgId: string;
  documentId: string;
  type: DocumentType;
  year: number;
  prefix: string;
  /** The Paris day the draft was planned on: a lock taken outside it answers 'replan'. */
  today: string;
  /** The time to seal at (a replayed date, or the one a 'locked' answer gave); the database's clock otherwise. */
  at: Date | null;
  /** sealingTemplate of the draft as written; null asks for the lock only. */
  template: { jcs: string; numberToken: string; timeToken: string } | null;
  /** What the finalization froze, by column name (dates, snapshots, totals…), written with the seal. */
  values: Record<string, unknown>;
  /** The event whose object gets the sealed values (number, finalized_at, chain_index, prev_hash, content_hash, updated_at). */
  eventId: string | null;
}

/**
 * The section of a finalization that holds the org's chain lock, as one statement (billing_seal_document, migration
 * 0037): locks the chain head then the series' counter, takes the next number and the time, hashes the template with
 * them after the head's hash, freezes and seals the draft in one update, advances head and counter, completes the event. The lock is then held
 * for PostgreSQL's work and the commit only, not while this process serves other requests between round trips.
 */
export async function sealInChain(conn: Conn, r: SealRequest): Promise<SealOutcome> {
  const result = (await conn.execute(sql`
    select * from billing_seal_document(
      ${r.orgId}::uuid, ${r.documentId}::uuid, ${r.type}, ${r.year}::integer, ${r.prefix},
      ${parisInstant(r.today, 0).toISOString()}::timestamptz, ${parisInstant(addDays(r.today, 1), 0).toISOString()}::timestamptz,
      ${r.at ? r.at.toISOString() : null}::timestamptz,
      ${r.template?.jcs ?? null}::text, ${r.template?.numberToken ?? null}::text, ${r.template?.timeToken ?? null}::text,
      ${JSON.stringify(r.values)}::jsonb, ${r.eventId}::uuid
    )
  `)) as unknown as { rows: Array<{ outcome: SealOutcome['outcome']; number: string | null; sequence: number | string | null; sealed_at: string; chain_index: number | string | null; prev_hash: string | null; content_hash: string | null; waited_ms: number | string; held_ms: number | string | null }> };
  const row = result.rows[0]!;
  const num = (v: number | string | null) => (v === null ? null : Number(v));
  return { outcome: row.outcome, at: new Date(row.sealed_at), number: row.number, sequence: num(row.sequence), chain_index: num(row.chain_index), prev_hash: row.prev_hash, content_hash: row.content_hash, waitedMs: Number(row.waited_ms), heldMs: num(row.held_ms) };
}

export type ChainBreak =
  | 'unchained'
  | 'index_gap'
  | 'prev_hash_mismatch'
  | 'content_hash_mismatch'
  | 'contact_mismatch'
  | 'head_mismatch';

/** Numbers of a series (type, year) that no finalized document carries, `from` to `to` inclusive. */
export interface SkippedNumbers {
  type: DocumentType;
  year: number;
  from: number;
  to: number;
}

export interface ChainReport {
  org_id: string;
  /** No broken link and no skipped number. */
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
  skipped_numbers: SkippedNumbers[];
}

const BATCH = 500;

/**
 * The gaps of every numbering series of the org: numbers below a series' highest one that no finalized document
 * carries (a document removed, or a number taken outside a finalization), and numbers the counter has passed that
 * no document carries (the counter moved without a finalization). Series and sequence are read from the number
 * itself ("FAC-2026-00042": facture, 2026, 42), as an auditor reads it.
 */
export async function skippedNumbers(db: Db, orgId: string): Promise<SkippedNumbers[]> {
  const result = (await db.execute(sql`
    with issued as (
      select type, substring(number from '-([0-9]{4})-[0-9]{1,9}$')::int as year, substring(number from '-[0-9]{4}-([0-9]{1,9})$')::int as n
      from documents
      where org_id = ${orgId} and finalized_at is not null and number is not null
    ),
    ordered as (
      select type, year, n, lag(n) over (partition by type, year order by n) as prev from issued where n is not null
    ),
    gaps as (
      select type, year, coalesce(prev, 0) + 1 as from_n, n - 1 as to_n from ordered where n > coalesce(prev, 0) + 1
    ),
    ahead as (
      select c.type, c.year, coalesce(max(i.n), 0) + 1 as from_n, c.last_number as to_n
      from number_counters c left join issued i on i.type = c.type and i.year = c.year
      where c.org_id = ${orgId}
      group by c.type, c.year, c.last_number
      having c.last_number > coalesce(max(i.n), 0)
    )
    select type, year, from_n, to_n from gaps
    union all
    select type, year, from_n, to_n from ahead
    order by type, year, from_n
  `)) as unknown as { rows: Array<{ type: DocumentType; year: number | string; from_n: number | string; to_n: number | string }> };
  return result.rows.map((r) => ({ type: r.type, year: Number(r.year), from: Number(r.from_n), to: Number(r.to_n) }));
}

/**
 * For each contact id, the contacts it leads to through merges (itself first): a finalized document's contact_id
 * is its hashed buyer's contact, or one that contact was merged into.
 */
async function mergePaths(db: Db, contactIds: readonly string[]): Promise<Map<string, string[]>> {
  const paths = new Map<string, string[]>();
  if (contactIds.length === 0) return paths;
  const result = (await db.execute(sql`
    with recursive path(start, id, depth) as (
      select c.id, c.id, 0 from contacts c where c.id in (${sql.join(contactIds.map((id) => sql`${id}::uuid`), sql`, `)})
      union
      select p.start, c.merged_into_id, p.depth + 1 from path p join contacts c on c.id = p.id where c.merged_into_id is not null and p.depth < 100
    )
    select start, id from path order by start, depth
  `)) as unknown as { rows: Array<{ start: string; id: string }> };
  for (const r of result.rows) paths.set(r.start, [...(paths.get(r.start) ?? []), r.id]);
  return paths;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const buyerContactOf = (doc: DocumentRow): string | null => {
  const id = (doc.client_snapshot as { contact_id?: unknown } | null)?.contact_id;
  return typeof id === 'string' && UUID.test(id) ? id : null;
};

/**
 * Recomputes every hash of the org's chain, in chain order, and reports the first broken link: a document
 * outside the chain, a missing position, a prev_hash that is not the previous document's hash, a content_hash
 * that does not match the content, a contact_id that is neither the hashed buyer's contact nor one it was merged
 * into, or a chain head that is not the last document (truncation). Also reports the numbers skipped in each series.
 */
export async function verifyChain(db: Db, orgId: string): Promise<ChainReport> {
  const skipped = await skippedNumbers(db, orgId);
  const report = (verified: number, head: string | null, first_broken: ChainReport['first_broken'] = null): ChainReport => ({
    org_id: orgId,
    ok: first_broken === null && skipped.length === 0,
    verified,
    head_hash: head,
    first_broken,
    skipped_numbers: skipped,
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
    const paths = await mergePaths(db, [...new Set(rows.map(buyerContactOf).filter((id): id is string => id !== null))]);

    for (const doc of rows) {
      const at = (reason: ChainBreak, expected: string | null, actual: string | null) =>
        report(expectedIndex - 1, prev, { reason, chain_index: doc.chain_index, document_id: doc.id, number: doc.number, expected, actual });
      if (doc.chain_index !== expectedIndex) return at('index_gap', String(expectedIndex), String(doc.chain_index));
      if (!doc.finalized_at) return at('unchained', 'finalized_at set', 'null');
      if (doc.prev_hash !== prev) return at('prev_hash_mismatch', prev, doc.prev_hash);
      const recomputed = contentHash(doc.prev_hash, canonicalPayload(doc, byDoc.get(doc.id) ?? []));
      if (recomputed !== doc.content_hash) return at('content_hash_mismatch', recomputed, doc.content_hash);
      const buyer = buyerContactOf(doc);
      const path = buyer ? (paths.get(buyer) ?? [buyer]) : null;
      if (path && !path.includes(doc.contact_id)) return at('contact_mismatch', path.at(-1)!, doc.contact_id);
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
