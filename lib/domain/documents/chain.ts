import { eq, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { hashChains } from '@/db/schema';
import { iso } from './documents';
import { verifyChain } from './hash-chain';
import type { ChainState, ChainVerification } from './schemas';

/** GET /v1/invoices/chain: the head an auditor compares with the documents they hold (length, last hash). */
export async function chainState(db: Db, orgId: string): Promise<ChainState> {
  const [head] = await db.select().from(hashChains).where(eq(hashChains.org_id, orgId));
  return { length: head?.length ?? 0, head: head?.head_hash ?? null, head_document_id: head?.head_document_id ?? null, verified_at: iso(head?.verified_at ?? null) };
}

/**
 * POST /v1/invoices/chain/verify: runs the verifier (the same as `chain:verify`) over the whole chain and, when it
 * holds and no number is skipped, records when. A broken chain keeps the previous successful verification's time.
 */
export async function verifyChainNow(db: Db, orgId: string, now = new Date()): Promise<ChainVerification> {
  const report = await verifyChain(db, orgId);
  let verifiedAt: Date | null = null;
  if (report.ok) {
    // Only this column: the length and head stay the finalize path's.
    const [row] = await db
      .insert(hashChains)
      .values({ org_id: orgId, verified_at: now })
      .onConflictDoUpdate({ target: hashChains.org_id, set: { verified_at: now, updated_at: sql`${hashChains.updated_at}` } })
      .returning({ verified_at: hashChains.verified_at });
    verifiedAt = row?.verified_at ?? now;
  } else {
    verifiedAt = (await db.select({ verified_at: hashChains.verified_at }).from(hashChains).where(eq(hashChains.org_id, orgId)))[0]?.verified_at ?? null;
  }
  return {
    ok: report.ok,
    verified: report.verified,
    head_hash: report.head_hash,
    first_broken: report.first_broken,
    skipped_numbers: report.skipped_numbers,
    verified_at: iso(verifiedAt),
  };
}
