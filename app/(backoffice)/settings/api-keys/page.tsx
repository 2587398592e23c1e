import type { Metadata } from 'next';
import { SubmitButton } from '@/components/form';
import { listApiKeys } from '@/lib/platform/auth/api-keys';
import { formatInstant } from '@/lib/platform/format';
import { envLabel, scopeLabel } from '@/lib/platform/i18n/api-keys-fr';
import { requireStaffOrg } from '@/lib/platform/http/staff';
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
          <p className="empty">Aucune clé pour l’instant.</p>
        ) : (
          <table className="table">
            <thead>
              <tr>
                <th>Nom</th>
                <th>Identifiant</th>
                <th>Environnement</th>
                <th>Droits</th>
                <th>Dernière utilisation</th>
                <th>État</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {keys.map((key) => (
                <tr key={key.id} data-testid={`key-row-${key.name}`}>
                  <td>{key.name}</td>
                  <td>
                    <code>{key.prefix}…</code>
                  </td>
                  <td>{envLabel(key.env)}</td>
                  <td>{key.scopes.map(scopeLabel).join(', ')}</td>
                  <td>{key.last_used_at ? formatInstant(key.last_used_at) : <span className="muted">jamais</span>}</td>
                  <td>{key.revoked_at ? <span className="chip chip-red">révoquée</span> : <span className="chip chip-green">active</span>}</td>
                  <td className="num">
                    {!key.revoked_at && (
                      <form action={revokeKeyAction}>
                        <input type="hidden" name="id" value={key.id} />
                        <SubmitButton className="btn btn-sm btn-danger">Révoquer</SubmitButton>
                      </form>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}
