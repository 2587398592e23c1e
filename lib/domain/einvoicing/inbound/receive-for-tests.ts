import { and, eq } from 'drizzle-orm';
import { einvoicingEnrollments, inboundInvoices } from '@/db/schema';
import { todayParis } from '@/lib/platform/dates';
import type { TestOrg } from '@/lib/testing/fixtures';
import { connectorForOrg } from '../connector';
import type { FlowSyntax } from '../port';
import type { SandboxPa } from '../sandbox/server';
import { fetchInbound } from './fetch';

/*
 * Tests' helpers for received invoices, apart from ./testing so that lib/domain/einvoicing/testing can re-export them
 * without an import circle (./testing reads the sandbox fixtures from there).
 */

/**
 * Enrolls an org already connected to a sandbox PA (pdp_config): its directory line registered at the sandbox, the
 * enrollment row `enrolled` (as the enrollment's job leaves it). Idempotent.
 */
export async function enrollAtSandbox(org: TestOrg) {
  const line = await (await connectorForOrg(org.db, org.org.id)).registerDirectoryLine({ siren: org.org.siren!, dateFrom: todayParis() });
  await org.db
    .insert(einvoicingEnrollments)
    .values({
      org_id: org.org.id,
      status: 'enrolled',
      siren: org.org.siren,
      electronic_address: line.electronicAddress,
      pa_directory_line_id: line.idInstance,
      requested_at: new Date(),
      enrolled_at: new Date(),
    })
    .onConflictDoNothing();
  return line;
}

/** A file delivered by the sandbox to the (enrolled) org, then fetched as the schedule does: the received invoice's row. */
export async function receiveAtSandbox(org: TestOrg, pa: SandboxPa, file: Uint8Array, syntax: FlowSyntax = 'CII') {
  const flowId = pa.state.inject(org.org.siren!, Buffer.from(file), syntax === 'Factur-X' ? 'application/pdf' : 'application/xml', syntax, null).flowId;
  await fetchInbound(org.db, org.org.id, await connectorForOrg(org.db, org.org.id));
  const [row] = await org.db.select().from(inboundInvoices).where(and(eq(inboundInvoices.org_id, org.org.id), eq(inboundInvoices.flow_id, flowId)));
  return row!;
}
