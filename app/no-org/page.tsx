import { requireStaff } from '@/lib/platform/next';
import { LinkButton } from '@/components/ui';

export const dynamic = 'force-dynamic';

export default async function NoOrgPage() {
  const staff = await requireStaff();
  return (
    <div className="auth-page">
      <div className="card auth-card">
        <div className="brand">Paraphe</div>
        <p>
          Le compte <strong>{staff.email}</strong> n’est membre d’aucune organisation.
        </p>
        <p className="muted">
          Demandez à un administrateur de vous ajouter, ou créez-en une :{' '}
          <code>npm run cli -- orgs:create --name …</code> puis <code>users:create</code>.
        </p>
        <LinkButton href="/api/auth/signout">
          Se déconnecter
        </LinkButton>
      </div>
    </div>
  );
}
