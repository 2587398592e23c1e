'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { buttonAction, formAction } from '@/lib/platform/next';
import { createInvitation, InvitationInput, revokeInvitation } from '@/lib/platform/orgs';

const ADMINS_ONLY = 'Seuls les administrateurs invitent dans l’organisation.';

/** Invites an address with a role; the e-mail with the link leaves once the invitation is written. */
export const inviteAction = formAction(
  async ({ db, orgId, userId }, input) => {
    const { invitation } = await createInvitation(db, orgId, userId, input);
    revalidatePath('/settings/team');
    return { done: `Invitation envoyée à ${invitation.email}.` };
  },
  { input: InvitationInput, adminOnly: ADMINS_ONLY },
);

/** Scoped to the active org: another org's invitation id is not found. */
export const revokeInvitationAction = buttonAction(
  async ({ db, orgId }, { id }) => {
    await revokeInvitation(db, orgId, id);
    revalidatePath('/settings/team');
  },
  { input: z.object({ id: z.uuid() }), adminOnly: ADMINS_ONLY },
);
