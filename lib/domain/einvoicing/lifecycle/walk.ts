import { and, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { einvoicingPollCursors, type PollStream } from '@/db/schema';
import type { FlowSearch, PaConnector, PaFlow } from '../port';

/** The annex's largest page. */
const PAGE = 100;
/** Pages read per run at most; the next run goes on from the cursor. */
const MAX_PAGES = 50;

interface Cursor {
  after: Date | null;
  seen: string[];
}

async function readCursor(db: Db, orgId: string, stream: PollStream): Promise<Cursor> {
  const [row] = await db
    .select()
    .from(einvoicingPollCursors)
    .where(and(eq(einvoicingPollCursors.org_id, orgId), eq(einvoicingPollCursors.stream, stream)));
  return { after: row?.updated_after ?? null, seen: row?.seen_flow_ids ?? [] };
}

async function saveCursor(db: Db, orgId: string, stream: PollStream, cursor: Cursor, lastError: string | null) {
  const values = { updated_after: cursor.after, seen_flow_ids: cursor.seen, polled_at: new Date(), last_error: lastError };
  await db
    .insert(einvoicingPollCursors)
    .values({ org_id: orgId, stream, ...values })
    .onConflictDoUpdate({ target: [einvoicingPollCursors.org_id, einvoicingPollCursors.stream], set: values });
}

/**
 * Walks the flows matching `search` updated since the org's cursor of `stream`, oldest update first, handing each to
 * `onFlow` once. The annex's search is strict (`updatedAfter`): it asks from 1 ms before the cursor and skips the
 * flows already read at that instant, so flows sharing a timestamp are neither lost nor read twice. The cursor is
 * saved after every page and only up to the last flow handled: a run that throws (PA down) resumes there, with the
 * error kept in the cursor's last_error. `onFlow` may return a string (a flow it skipped, and why), kept in last_error
 * too. Returns how many flows were handled.
 */
export async function walkFlows(
  db: Db,
  orgId: string,
  stream: PollStream,
  connector: PaConnector,
  search: Omit<FlowSearch, 'updatedAfter' | 'limit'>,
  onFlow: (flow: PaFlow) => Promise<unknown>,
  maxPages = MAX_PAGES,
): Promise<number> {
  const cursor = await readCursor(db, orgId, stream);
  let handled = 0;
  let note: string | null = null;
  try {
    for (let page = 0; page < maxPages; page++) {
      const since = cursor.after ? new Date(cursor.after.getTime() - 1).toISOString() : null;
      const flows = await connector.searchFlows({ ...search, updatedAfter: since, limit: PAGE });
      let progressed = false;
      for (const flow of flows) {
        const at = new Date(flow.updatedAt);
        const sameInstant = cursor.after !== null && at.getTime() === cursor.after.getTime();
        if ((sameInstant && cursor.seen.includes(flow.flowId)) || (cursor.after !== null && at < cursor.after)) continue;
        const skipped = await onFlow(flow);
        if (typeof skipped === 'string') note = skipped;
        handled++;
        progressed = true;
        if (sameInstant) cursor.seen.push(flow.flowId);
        else Object.assign(cursor, { after: at, seen: [flow.flowId] });
      }
      if (progressed) await saveCursor(db, orgId, stream, cursor, note);
      // A short page is the last; a full page of flows all read already (over 100 at one instant) cannot move on.
      if (flows.length < PAGE || !progressed) break;
    }
  } catch (err) {
    await saveCursor(db, orgId, stream, cursor, err instanceof Error ? err.message.slice(0, 1000) : String(err));
    throw err;
  }
  await saveCursor(db, orgId, stream, cursor, note);
  return handled;
}
