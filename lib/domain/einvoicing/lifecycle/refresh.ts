import type { Db } from '@/db/client';
import { type BillingDocument, loadDocument } from '@/lib/domain/documents';
import { paFailure } from '../inbound/answer';
import { connectorForOrg } from '../connector';
import { limitPaCall } from '../connection/limits';
import { PaError } from '../port';
import { pollLifecycle } from './poll';

/** Pages of 100 flows read by hand at most: the 5-minute schedule reads on from the cursor. */
const REFRESH_PAGES = 2;
/** An interactive call waits 10 s at most (the schedule's wait 30 s). */
const REFRESH_TIMEOUT_MS = 10_000;

export interface RefreshResult {
  /** Whether the PA was asked: only a transmitted invoice has statuses to read. */
  polled: boolean;
  /** Statuses newly recorded, this document's or the org's others (the poll reads the org's stream). */
  recorded: number;
  transmission_status: BillingDocument['transmission_status'];
  lifecycle_status: string | null;
}

/**
 * « Actualiser » on an invoice's page: its lifecycle statuses asked of the PA now, not at the next 5-minute poll.
 * A direct call rather than a job, because staff wait for the answer on the page; it is the poll's own code path
 * (pollLifecycle on the org's cursor, each status recorded once), bounded (REFRESH_PAGES, REFRESH_TIMEOUT_MS) and
 * limited per org (PA_HAND_LIMITS.refresh, 429). A document not yet transmitted is only read again: its submission
 * is its job's. 404 for another org's document; a PA failure is 503 pa_unavailable or 502 pa_refused.
 */
export async function refreshLifecycle(db: Db, orgId: string, documentId: string): Promise<RefreshResult> {
  const before = await loadDocument(db, orgId, documentId);
  let recorded = 0;
  const polled = before.transmission_status === 'sent';
  if (polled) {
    await limitPaCall('refresh', orgId);
    const connector = await connectorForOrg(db, orgId, { timeoutMs: REFRESH_TIMEOUT_MS });
    try {
      recorded = (await pollLifecycle(db, orgId, connector, { maxPages: REFRESH_PAGES })).recorded;
    } catch (err) {
      if (err instanceof PaError) throw paFailure(err);
      throw err;
    }
  }
  const after = await loadDocument(db, orgId, documentId);
  return { polled, recorded, transmission_status: after.transmission_status, lifecycle_status: after.lifecycle_status ?? null };
}
