import Link from 'next/link';
import { listApiKeys } from '@/lib/platform/auth';
import { invoiceStats, revenueByMonth } from '@/lib/domain/stats';
import { formatMoney, plural, pluralWord } from '@/lib/platform/format';
import { requireStaffOrg } from '@/lib/platform/next';
import { getOrg, missingLegalMentions } from '@/lib/platform/orgs';
import { hasAnyDocument, onboardingProgress, onboardingSteps } from '@/lib/composition/onboarding';
import { OnboardingChecklist } from './onboarding-checklist';
import { RevenueChart } from './revenue-chart';


export default async function DashboardPage() {
  const staff = await requireStaffOrg();
  const [org, keys, stats, revenue, steps, anyDocument] = await Promise.all([
    getOrg(staff.db, staff.orgId),
    listApiKeys(staff.db, staff.orgId),
    invoiceStats(staff.db, staff.orgId, {}),
    revenueByMonth(staff.db, staff.orgId, {}),
    onboardingSteps(staff.db, staff.orgId),
    hasAnyDocument(staff.db, staff.orgId),
  ]);
  const missing = missingLegalMentions(org);
  const activeKeys = keys.filter((k) => !k.revoked_at);
  const onboarding = onboardingProgress(steps);
  return (
    <>
      <div className="page-header">
        <h1>Bonjour{staff.name ? `, ${staff.name.split(' ')[0]}` : ''}</h1>
      </div>
      {/* First run: the checklist on top while a step is open; with no document yet, it stands in for the zeros. */}
      {!onboarding.complete && <OnboardingChecklist steps={steps} />}
      {missing.length > 0 ? (
        <div className="notice notice-warning">
          Vos factures doivent porter toutes les mentions légales du vendeur. Il manque :{' '}
          <strong>{missing.join(', ')}</strong>. <Link href="/settings/organisation">Compléter l’identité</Link>
        </div>
      ) : (
        <div className="notice notice-success">L’identité légale de {org.legal_name ?? org.name} est complète.</div>
      )}
      {!anyDocument ? (
        <p className="muted" data-testid="dashboard-empty">
          Vos chiffres (encours, retards, chiffre d’affaires) apparaîtront ici dès votre premier devis ou votre première facture.{' '}
          <Link href="/documents/new?type=devis">Créer un devis</Link>
        </p>
      ) : (
        <>
          <section className="stats" aria-label="Facturation">
            {/* Each figure opens the list of what it counts: the documents list's filters are the same definitions (overdueSql). */}
            <Link className="stat" href="/documents?outstanding=true" data-testid="stat-outstanding">
              <div className="stat-label">Encours clients</div>
              <div className="stat-value">{formatMoney(stats.outstanding.amount)}</div>
              <div className="muted">{plural(stats.outstanding.count, 'facture à encaisser', 'factures à encaisser')}</div>
            </Link>
            <Link className={`stat${stats.overdue.count ? ' stat-red' : ''}`} href="/documents?overdue=true" data-testid="stat-overdue">
              <div className="stat-label">En retard</div>
              <div className="stat-value">{formatMoney(stats.overdue.amount)}</div>
              <div className="muted">{plural(stats.overdue.count, 'facture échue', 'factures échues')}</div>
            </Link>
            <div className="stat" data-testid="stat-net">
              <div className="stat-label">Facturé depuis le 1er janvier</div>
              <div className="stat-value">{formatMoney(stats.net.total_ht)}</div>
              <div className="muted">HT, net des avoirs</div>
            </div>
            <div className="stat" data-testid="stat-collected">
              <div className="stat-label">Encaissé depuis le 1er janvier</div>
              <div className="stat-value">{formatMoney(stats.collected.amount)}</div>
              <div className="muted">{plural(stats.collected.count, 'paiement', 'paiements')}</div>
            </div>
            <Link className="stat" href={`/documents?awaiting_answer=true&issue_date_from=${stats.from}&issue_date_to=${stats.to}`} data-testid="stat-quotes">
              <div className="stat-label">Devis en attente de réponse</div>
              <div className="stat-value">{formatMoney(stats.quotes.open.total_ht)}</div>
              <div className="muted">
                {plural(stats.quotes.open.count, 'devis', 'devis')} · {plural(stats.drafts.count, 'brouillon', 'brouillons')}
              </div>
            </Link>
          </section>

          <section className="card">
            <h2>Chiffre d’affaires des 12 derniers mois</h2>
            <RevenueChart months={revenue.months} title={`Chiffre d’affaires HT net des avoirs par mois, de ${revenue.from.slice(0, 7)} à ${revenue.to.slice(0, 7)}`} />
            <p className="muted">
              Total sur la période : {formatMoney(revenue.total.net_ht)} HT ({formatMoney(revenue.total.net_ttc)} TTC). Les acomptes comptent à leur émission, la facture
              finale pour son solde ; un avoir est déduit le mois où il est émis.
            </p>
          </section>
        </>
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
            {plural(activeKeys.length, 'clé')} API {pluralWord(activeKeys.length, 'active')}.{' '}
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
