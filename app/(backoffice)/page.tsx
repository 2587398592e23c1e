import Link from 'next/link';
import { listApiKeys } from '@/lib/auth/api-keys';
import { requireStaffOrg } from '@/lib/http/staff';
import { missingLegalMentions } from '@/lib/orgs/identity-check';
import { getOrg } from '@/lib/orgs/orgs';

export default async function DashboardPage() {
  const staff = await requireStaffOrg();
  const [org, keys] = await Promise.all([getOrg(staff.db, staff.orgId), listApiKeys(staff.db, staff.orgId)]);
  const missing = missingLegalMentions(org);
  const activeKeys = keys.filter((k) => !k.revoked_at);
  return (
    <>
      <div className="page-header">
        <h1>Bonjour{staff.name ? `, ${staff.name.split(' ')[0]}` : ''}</h1>
      </div>
      {missing.length > 0 ? (
        <div className="notice notice-warning">
          Vos factures doivent porter toutes les mentions légales du vendeur. Il manque :{' '}
          <strong>{missing.join(', ')}</strong>. <Link href="/settings/organisation">Compléter l’identité</Link>
        </div>
      ) : (
        <div className="notice notice-success">L’identité légale de {org.legal_name ?? org.name} est complète.</div>
      )}
      <div className="grid-2">
        <section className="card">
          <h2>{org.legal_name ?? org.name}</h2>
          <p className="muted">
            {[org.legal_form, org.siren && `SIREN ${org.siren}`, org.vat_number].filter(Boolean).join(' · ') || 'Identité à compléter'}
          </p>
          <p>{[org.address, [org.postal_code, org.city].filter(Boolean).join(' ')].filter(Boolean).join(', ')}</p>
        </section>
        <section className="card">
          <h2>Intégrations</h2>
          <p>
            {activeKeys.length} clé{activeKeys.length > 1 ? 's' : ''} API active{activeKeys.length > 1 ? 's' : ''}.{' '}
            <Link href="/settings/api-keys">Gérer les clés</Link>
          </p>
          <p>
            <Link href="/docs/api">Référence de l’API</Link> · <a href="/v1/openapi.json">OpenAPI 3.1</a>
          </p>
        </section>
      </div>
    </>
  );
}
