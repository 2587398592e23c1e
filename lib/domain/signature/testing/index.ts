/** Test helpers of the signature module's owner-side lifecycle (lib/domain/signature/lifecycle*.ts, approvers, reminders). */
import { and, asc, eq } from 'drizzle-orm';
import { encode } from 'next-auth/jwt';
import * as approve from '@/app/v1/signature/envelopes/[id]/approve/route';
import * as approverOne from '@/app/v1/signature/envelopes/[id]/approvers/[approver_id]/route';
import * as approvers from '@/app/v1/signature/envelopes/[id]/approvers/route';
import * as cancel from '@/app/v1/signature/envelopes/[id]/cancel/route';
import * as reactivate from '@/app/v1/signature/envelopes/[id]/reactivate/route';
import * as remind from '@/app/v1/signature/envelopes/[id]/remind/route';
import * as one from '@/app/v1/signature/envelopes/[id]/route';
import * as send from '@/app/v1/signature/envelopes/[id]/send/route';
import * as link from '@/app/v1/signature/envelopes/[id]/signers/[signer_id]/link/route';
import * as timeline from '@/app/v1/signature/envelopes/[id]/timeline/route';
import * as collection from '@/app/v1/signature/envelopes/route';
import { emails, events, signatureDocuments, signatureEnvelopes, signatureSigners } from '@/db/schema';
import type { Scope } from '@/lib/platform/auth';
import { appBaseUrl, authSecret } from '@/lib/platform/config';
import { addMembership, createUser } from '@/lib/platform/orgs';
import type { TestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';

/** The envelope routes of the lifecycle, called as the server would (tests only). */
export function envelopeApi(org: TestOrg, scopes?: Scope[]) {
  const token = () => org.key(scopes);
  const post = async (handler: typeof send.POST, verb: string, id: string, body?: unknown, headers?: Record<string, string>) =>
    // A session cookie in the headers stands for the back-office: no API key then.
    call(handler, 'POST', `/v1/signature/envelopes/${id}/${verb}`, { token: headers?.cookie ? undefined : await token(), params: { id }, body, headers });
  return {
    create: async (body: unknown, headers?: Record<string, string>) => call(collection.POST, 'POST', '/v1/signature/envelopes', { token: await token(), body, headers }),
    get: async (id: string) => call(one.GET, 'GET', `/v1/signature/envelopes/${id}`, { token: await token(), params: { id } }),
    patch: async (id: string, body: unknown) => call(one.PATCH, 'PATCH', `/v1/signature/envelopes/${id}`, { token: await token(), params: { id }, body }),
    send: (id: string, headers?: Record<string, string>) => post(send.POST, 'send', id, undefined, headers),
    cancel: (id: string) => post(cancel.POST, 'cancel', id),
    remind: (id: string) => post(remind.POST, 'remind', id),
    reactivate: (id: string, body?: unknown) => post(reactivate.POST, 'reactivate', id, body),
    approve: (id: string, body?: unknown, headers?: Record<string, string>) => post(approve.POST, 'approve', id, body, headers),
    addApprover: (id: string, body: unknown) => post(approvers.POST, 'approvers', id, body),
    approvers: async (id: string) => call(approvers.GET, 'GET', `/v1/signature/envelopes/${id}/approvers`, { token: await token(), params: { id } }),
    removeApprover: async (id: string, approverId: string) =>
      call(approverOne.DELETE, 'DELETE', `/v1/signature/envelopes/${id}/approvers/${approverId}`, { token: await token(), params: { id, approver_id: approverId } }),
    timeline: async (id: string) => call(timeline.GET, 'GET', `/v1/signature/envelopes/${id}/timeline`, { token: await token(), params: { id } }),
    link: async (id: string, signerId: string) =>
      call(link.POST, 'POST', `/v1/signature/envelopes/${id}/signers/${signerId}/link`, { token: await token(), params: { id, signer_id: signerId } }),
  };
}

export const routes = { approve, cancel, send };

/** Every route of the lifecycle: name, handler, method, whether it writes (needs signature:write). */
export const lifecycleRoutes = [
  ['PATCH /{id}', one.PATCH, 'PATCH', true],
  ['POST approvers', approvers.POST, 'POST', true],
  ['GET approvers', approvers.GET, 'GET', false],
  ['DELETE approvers/{approver_id}', approverOne.DELETE, 'DELETE', true],
  ['POST approve', approve.POST, 'POST', true],
  ['POST send', send.POST, 'POST', true],
  ['POST cancel', cancel.POST, 'POST', true],
  ['POST remind', remind.POST, 'POST', true],
  ['POST reactivate', reactivate.POST, 'POST', true],
  ['GET timeline', timeline.GET, 'GET', false],
  ['POST signers/{signer_id}/link', link.POST, 'POST', true],
] as const;

/** A stored PDF row (the upload path is api.test.ts's concern): its sha256 is what send records as document_hash. */
export async function pdfRow(org: TestOrg, sha256 = 'b'.repeat(64)) {
  const [row] = await org.db
    .insert(signatureDocuments)
    .values({ org_id: org.org.id, name: 'contrat.pdf', storage_key: `signature/${org.org.id}/documents/x.pdf`, sha256, page_count: 2, byte_size: 1234 })
    .returning();
  return row!.id;
}

/** A staff member of the org (an admin unless told), and the same-origin session cookie the back-office sends. */
export async function staffMember(org: TestOrg, label: string, role: 'admin' | 'accountant' = 'admin') {
  const user = await createUser(org.db, { email: `${label}-${org.org.id}@exemple.fr`, password: 'long enough password', name: `Staff ${label}` });
  await addMembership(org.db, org.org.id, user.id, role);
  const cookie = `next-auth.session-token=${await encode({ token: { sub: user.id, orgId: org.org.id }, secret: authSecret() })}`;
  return { user, headers: { cookie, origin: appBaseUrl() } };
}

export const signersOf = (org: TestOrg, envelopeId: string) =>
  org.db.select().from(signatureSigners).where(eq(signatureSigners.envelope_id, envelopeId)).orderBy(asc(signatureSigners.position));
export const envelopeRow = async (org: TestOrg, id: string) => (await org.db.select().from(signatureEnvelopes).where(eq(signatureEnvelopes.id, id)))[0]!;
export const mailsTo = (org: TestOrg, address: string) =>
  org.db
    .select()
    .from(emails)
    .where(and(eq(emails.org_id, org.org.id), eq(emails.to, [address])))
    .orderBy(asc(emails.created_at));
export const eventsOfType = (org: TestOrg, type: string) =>
  org.db
    .select()
    .from(events)
    .where(and(eq(events.org_id, org.org.id), eq(events.type, type)));
