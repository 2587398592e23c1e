import { and, eq, lt, or, isNull } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { einvoicingEnrollments, invoiceSettings, orgs } from '@/db/schema';
import { todayParis } from '@/lib/platform/dates';
import { ApiError, validationError } from '@/lib/platform/errors';
import { isValidSiren, isValidSiret } from '@/lib/platform/identifiers';
import { connectorFor } from '../connector';
import { type DirectoryLine, electronicAddressOf, type PaConnector, PaError } from '../port';
import type { Enrollment, EnrollmentInput } from '../schemas';

/*
 * The org's line in the directory, through its PA (DESIGN §11, docs/einvoicing.md § Enrollment): POST registers it
 * (registerDirectoryLine) and answers 200 enrolled when the PA enables it at once, else 202 pending; a job checks
 * pending lines (getDirectoryLine) until they are enabled (enrolled) or gone (failed), and gives up after 7 days.
 */

type Row = typeof einvoicingEnrollments.$inferSelect;

/** A pending line not confirmed within this long fails (the PA normally answers within a day). */
export const PENDING_GIVE_UP_MS = 7 * 86_400_000;
/** A pending line is checked at most this often. */
export const CHECK_EVERY_MS = 60_000;

const view = (row: Row | undefined): Enrollment => ({
  status: row?.status ?? 'not_enrolled',
  siren: row?.siren ?? null,
  siret: row?.siret ?? null,
  routing_code: row?.routing_code ?? null,
  electronic_address: row?.electronic_address ?? null,
  reason: row?.reason ?? null,
  requested_at: row?.requested_at?.toISOString() ?? null,
  enrolled_at: row?.enrolled_at?.toISOString() ?? null,
});

export async function getEnrollment(db: Db, orgId: string): Promise<Enrollment> {
  const [row] = await db.select().from(einvoicingEnrollments).where(eq(einvoicingEnrollments.org_id, orgId));
  return view(row);
}

/** A PA failure as the API answers it: 503 while the PA cannot be reached, 409 when it refuses our credentials. */
export function paFailure(error: PaError): ApiError {
  if (error.retryable) return new ApiError(503, 'pa_unavailable', `The PA cannot be reached right now: ${error.message}. Try again in a few minutes.`, null, { 'retry-after': '60' });
  if (error.kind === 'auth') return new ApiError(409, 'pa_refused', `The PA refused the credentials of pdp_config: ${error.message}.`, 'pdp_config');
  return new ApiError(502, 'pa_refused', `The PA answered in a way Paraphe cannot use: ${error.message}.`);
}

async function save(db: Db, orgId: string, values: Partial<Row>): Promise<Row> {
  const [row] = await db
    .insert(einvoicingEnrollments)
    .values({ org_id: orgId, ...values })
    .onConflictDoUpdate({ target: einvoicingEnrollments.org_id, set: { ...values, updated_at: new Date() } })
    .returning();
  return row!;
}

const lineValues = (line: DirectoryLine, now: Date): Partial<Row> =>
  line.status === 'active'
    ? { status: 'enrolled', enrolled_at: now, failed_at: null, reason: null, electronic_address: line.electronicAddress, pa_directory_line_id: line.idInstance }
    : { status: 'pending', enrolled_at: null, failed_at: null, reason: null, electronic_address: line.electronicAddress, pa_directory_line_id: line.idInstance };

/**
 * POST: registers the org's directory line (omitted identifiers from its legal identity). 200 enrolled or 202
 * pending; the same identity again answers the current state without asking the PA twice. The PA's refusal is kept
 * (failed, with its reason and date) and answered 422 enrollment_refused.
 */
export async function requestEnrollment(db: Db, orgId: string, input: EnrollmentInput, connector?: PaConnector): Promise<{ status: 200 | 202; body: Enrollment }> {
  const [settings] = await db.select({ pdp_config: invoiceSettings.pdp_config }).from(invoiceSettings).where(eq(invoiceSettings.org_id, orgId));
  const pa = connector ?? connectorFor(settings);
  const [org] = await db.select({ siren: orgs.siren, siret: orgs.siret }).from(orgs).where(eq(orgs.id, orgId));
  const siren = input.siren ?? org?.siren ?? null;
  // The org's own SIRET is a default only under its own SIREN.
  const siret = input.siret ?? (org?.siret && siren && org.siret.startsWith(siren) ? org.siret : null);
  const routingCode = input.routing_code ?? null;
  if (!siren) throw validationError('siren', 'siren: required (the organisation has no SIREN in its legal identity)');
  if (!isValidSiren(siren)) throw validationError('siren', 'siren: must be a SIREN: 9 digits with a valid check digit (Luhn)');
  if (siret && !isValidSiret(siret)) throw validationError('siret', 'siret: must be a SIRET: 14 digits with a valid check digit (Luhn)');
  if (siret && !siret.startsWith(siren)) throw validationError('siret', 'siret: must belong to the SIREN (start with its 9 digits)');
  if (routingCode && !siret) throw validationError('routing_code', 'routing_code: a routing code belongs to a SIRET: give the siret too');

  const [current] = await db.select().from(einvoicingEnrollments).where(eq(einvoicingEnrollments.org_id, orgId));
  const same = current && current.siren === siren && current.siret === siret && current.routing_code === routingCode;
  if (same && current.status === 'enrolled') return { status: 200, body: view(current) };
  if (same && current.status === 'pending') return { status: 202, body: view(current) };

  const now = new Date();
  const identity = { siren, siret, routing_code: routingCode, requested_at: now, checks: 0, checked_at: null, pa_routing_code_id: null };
  let line: DirectoryLine;
  try {
    // The company's own line (0225:<SIREN>) unless a routing code asks for a finer one (SIREN_SIRET_ROUTINGCODE).
    line = await pa.registerDirectoryLine({ siren, siret: routingCode ? siret : null, routingCode, dateFrom: todayParis(now) });
  } catch (error) {
    if (!(error instanceof PaError)) throw error;
    if (error.kind !== 'rejected' && error.kind !== 'not_found') throw paFailure(error);
    const row = await save(db, orgId, {
      ...identity,
      status: 'failed',
      reason: error.message,
      failed_at: now,
      enrolled_at: null,
      electronic_address: electronicAddressOf(routingCode ? `${siren}_${siret}_${routingCode}` : siren),
      pa_directory_line_id: null,
    });
    throw new ApiError(422, 'enrollment_refused', `The PA refused the directory line: ${row.reason}`, null, {}, { enrollment: view(row) });
  }
  const row = await save(db, orgId, { ...identity, ...lineValues(line, now) });
  return { status: row.status === 'enrolled' ? 200 : 202, body: view(row) };
}

/**
 * One check of a pending enrollment: enabled → enrolled; gone → failed; still pending → checked again later, failed
 * after PENDING_GIVE_UP_MS. A PA that cannot be reached changes nothing (the next check tries again).
 */
export async function checkEnrollment(db: Db, orgId: string, now = new Date(), connector?: PaConnector): Promise<Enrollment> {
  const [row] = await db.select().from(einvoicingEnrollments).where(eq(einvoicingEnrollments.org_id, orgId));
  if (row?.status !== 'pending' || !row.pa_directory_line_id) return view(row);
  let line: DirectoryLine | null;
  try {
    const [settings] = await db.select({ pdp_config: invoiceSettings.pdp_config }).from(invoiceSettings).where(eq(invoiceSettings.org_id, orgId));
    line = await (connector ?? connectorFor(settings)).getDirectoryLine(row.pa_directory_line_id);
  } catch (error) {
    if (error instanceof PaError && error.retryable) {
      return view(await save(db, orgId, { checked_at: now, checks: row.checks + 1 }));
    }
    const reason = error instanceof PaError || error instanceof ApiError ? error.message : 'the PA could not be asked';
    return view(await save(db, orgId, { status: 'failed', reason, failed_at: now, checked_at: now, checks: row.checks + 1 }));
  }
  if (!line) {
    return view(await save(db, orgId, { status: 'failed', reason: 'The PA withdrew the directory line (not found any more).', failed_at: now, checked_at: now, checks: row.checks + 1 }));
  }
  if (line.status === 'active') return view(await save(db, orgId, { ...lineValues(line, now), checked_at: now, checks: row.checks + 1 }));
  if (row.requested_at && now.getTime() - row.requested_at.getTime() > PENDING_GIVE_UP_MS) {
    return view(await save(db, orgId, { status: 'failed', reason: 'The PA did not confirm the directory line within 7 days.', failed_at: now, checked_at: now, checks: row.checks + 1 }));
  }
  return view(await save(db, orgId, { checked_at: now, checks: row.checks + 1 }));
}

/** The pending enrollments due for a check (not checked within CHECK_EVERY_MS), oldest first. */
export async function dueEnrollments(db: Db, now = new Date(), limit = 500): Promise<string[]> {
  const before = new Date(now.getTime() - CHECK_EVERY_MS);
  const rows = await db
    .select({ org_id: einvoicingEnrollments.org_id })
    .from(einvoicingEnrollments)
    .where(and(eq(einvoicingEnrollments.status, 'pending'), or(isNull(einvoicingEnrollments.checked_at), lt(einvoicingEnrollments.checked_at, before))))
    .orderBy(einvoicingEnrollments.requested_at)
    .limit(limit);
  return rows.map((r) => r.org_id);
}
