import type { Metadata } from 'next';
import { DataTable, EmptyState, SubmitButton } from '@/components/ui';
import { formatInstant } from '@/lib/platform/format';
import { requireStaffOrg } from '@/lib/platform/next';
import { listMembers, listPendingInvitations, type Role } from '@/lib/platform/orgs';
import { revokeInvitationAction } from './actions';
import { InviteForm } from './invite-form';

export const metadata: Metadata = { title: 'Équipe' };

const ROLE_LABELS: Record<Role, string> = { owner: 'Propriétaire', admin: 'Administrateur', member: 'Membre', accountant: 'Comptable (lecture seule)' };

/** Réglages → Équipe: the org's members and roles, the pending invitations, and the invitation of a comptable. */
export default async function TeamPage() {
  const staff = await requireStaffOrg();
  const admin = staff.role === 'owner' || staff.role === 'admin';
  const [members, invitations] = await Promise.all([listMembers(staff.db, staff.orgId), admin ? listPendingInvitations(staff.db, staff.orgId) : []]);
  return (
    <>
      <div className="page-header">
        <h1>Équipe</h1>
      </div>
      {admin && (
        <section className="card" aria-labelledby="invite-title">
          <h2 id="invite-title">Inviter</h2>
          <p className="muted">Un lien d’invitation, valable 7 jours, part par e-mail ; la personne choisit son mot de passe puis se connecte.</p>
          <InviteForm />
        </section>
      )}
      <section className="card" aria-labelledby="members-title">
        <h2 id="members-title">Membres</h2>
        <DataTable
          label="Membres de l’organisation"
          columns={[
            { key: 'email', header: 'E-mail', cell: (m) => m.email },
            { key: 'nom', header: 'Nom', cell: (m) => m.name ?? '' },
            { key: 'role', header: 'Rôle', cell: (m) => ROLE_LABELS[m.role] },
          ]}
          rows={members}
          rowKey={(m) => m.user_id}
        />
      </section>
      {admin && (
        <section className="card" aria-labelledby="invitations-title">
          <h2 id="invitations-title">Invitations en attente</h2>
          {invitations.length === 0 ? (
            <EmptyState>Aucune invitation en attente.</EmptyState>
          ) : (
            <DataTable
              label="Invitations en attente"
              columns={[
                { key: 'email', header: 'E-mail', cell: (i) => i.email },
                { key: 'role', header: 'Rôle', cell: (i) => ROLE_LABELS[i.role] },
                { key: 'expire', header: 'Expire le', cell: (i) => formatInstant(i.expires_at) },
                {
                  key: 'col',
                  header: '',
                  num: true,
                  cell: (i) => (
                    <form action={revokeInvitationAction}>
                      <input type="hidden" name="id" value={i.id} />
                      <SubmitButton variant="danger" small>
                        Retirer
                      </SubmitButton>
                    </form>
                  ),
                },
              ]}
              rows={invitations}
              rowKey={(i) => i.id}
            />
          )}
        </section>
      )}
    </>
  );
}
