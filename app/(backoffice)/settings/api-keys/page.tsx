import type { Metadata } from 'next';
import { DataTable, EmptyState, StatusChip, SubmitButton } from '@/components/ui';
import { listApiKeys } from '@/lib/platform/auth';
import { formatInstant } from '@/lib/platform/format';
import { envLabel, scopeLabel } from '@/lib/platform/i18n';
import { requireStaffOrg } from '@/lib/platform/next';
import { revokeKeyAction } from './actions';
import { CreateKeyForm } from './create-key-form';

export const metadata: Metadata = { title: 'Clés API' };


export default async function ApiKeysPage() {
  const staff = await requireStaffOrg();
  const keys = await listApiKeys(staff.db, staff.orgId);
  return (
    <>
      <div className="page-header">
        <h1>Clés API</h1>
      </div>
      <section className="card">
        <h2>Nouvelle clé</h2>
        <CreateKeyForm />
      </section>
      <section className="card">
        <h2>Clés de l’organisation</h2>
        {keys.length === 0 ? (
          <EmptyState>Aucune clé pour l’instant.</EmptyState>
        ) : (
          <DataTable
            label="Clés d’API"
            columns={[
              { key: 'nom', header: 'Nom', cell: (key) => key.name },
              { key: 'identifiant', header: 'Identifiant', cell: (key) => <code>{key.prefix}…</code> },
              { key: 'environnement', header: 'Environnement', cell: (key) => envLabel(key.env) },
              { key: 'droits', header: 'Droits', cell: (key) => key.scopes.map(scopeLabel).join(', ') },
              {
                key: 'derniere_utilisation',
                header: 'Dernière utilisation',
                cell: (key) => key.last_used_at ? formatInstant(key.last_used_at) : <span className="muted">jamais</span>,
              },
              {
                key: 'etat',
                header: 'État',
                cell: (key) => key.revoked_at ? <StatusChip tone="chip-red">révoquée</StatusChip> : <StatusChip tone="chip-green">active</StatusChip>,
              },
              {
                key: 'col',
                header: '',
                num: true,
                cell: (key) => (
                  <>
                    {!key.revoked_at && (
                      <form action={revokeKeyAction}>
                        <input type="hidden" name="id" value={key.id} />
                        <SubmitButton variant="danger" small>Révoquer</SubmitButton>
                      </form>
                    )}
                  </>
                ),
              },
            ]}
            rows={keys}
            rowKey={(key) => key.id}
            rowProps={(key) => ({ 'data-testid': `key-row-${key.name}` })}
          />
        )}
      </section>
    </>
  );
}
