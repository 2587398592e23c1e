'use server';

import { revalidatePath } from 'next/cache';
import { AcceptInboundInput, answerInbound, connectorForOrg, DisputeInboundInput, fetchInbound, type InboundAnswer, PaError, paFailure, RefuseInboundInput } from '@/lib/domain/einvoicing';
import { ApiError, conflict } from '@/lib/platform/errors';
import { formAction, idOf, type StaffContext } from '@/lib/platform/next';
import { plural } from '@/lib/platform/format';

const DONE: Record<InboundAnswer, string> = {
  accept: 'Facture approuvée : la plateforme en est informée.',
  refuse: 'Facture refusée : la plateforme en est informée.',
  dispute: 'Facture contestée : la plateforme en est informée.',
};

/** The answer through the same service as POST /v1/invoices/inbound/{id}/…; a PA that fails is said above the form. */
async function send(staff: StaffContext, id: string, answer: InboundAnswer, input: { reason_code?: string | null; reason?: string | null }) {
  try {
    await answerInbound(staff.db, staff.orgId, idOf(id), answer, input);
  } catch (err) {
    // 503 pa_unavailable, 502 pa_refused: a state staff can act on (try later, check the PA), not a bug.
    if (err instanceof ApiError && (err.code === 'pa_unavailable' || err.code === 'pa_refused')) throw conflict(err.code, err.message);
    throw err;
  }
  revalidatePath('/invoices/received');
  return { done: DONE[answer] };
}

const notFound = 'Cette facture reçue n’existe plus.';

export const acceptInboundAction = formAction(async (staff, input, id: string) => send(staff, id, 'accept', input), { input: AcceptInboundInput, notFound });
export const refuseInboundAction = formAction(async (staff, input, id: string) => send(staff, id, 'refuse', input), { input: RefuseInboundInput, notFound });
export const disputeInboundAction = formAction(async (staff, input, id: string) => send(staff, id, 'dispute', input), { input: DisputeInboundInput, notFound });

/**
 * « Relever maintenant »: the schedule's fetch for this org at once (the same fetchInbound), instead of waiting for
 * the next 5-minute run. 409 einvoicing_not_configured without a PA; a PA that fails is said above the button.
 */
export const fetchNowAction = formAction(async ({ db, orgId }) => {
  let created: number;
  try {
    created = (await fetchInbound(db, orgId, await connectorForOrg(db, orgId))).created;
  } catch (err) {
    if (err instanceof PaError) {
      const failure = paFailure(err);
      throw conflict(failure.code, failure.message);
    }
    throw err;
  }
  revalidatePath('/invoices/received');
  return { done: created ? `${plural(created, 'nouvelle facture reçue', 'nouvelles factures reçues')}.` : 'Aucune nouvelle facture.' };
});
