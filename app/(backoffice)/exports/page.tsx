import type { Metadata } from 'next';
import { formatDay } from '@/lib/platform/format';
import { currentMonth, getExportSettings, PERIOD_PRESETS, Period, presetOf, presetPeriod } from '@/lib/domain/exports';
import { requireStaffOrg } from '@/lib/platform/next';
import { AccountsForm } from './accounts-form';
import { Button, ChipLink, DownloadButton } from '@/components/ui';

export const metadata: Metadata = { title: 'Exports comptables' };

const DOWNLOADS = [
  { path: 'fec', label: 'Écritures comptables (FEC)', hint: 'Fichier des écritures comptables, art. A47 A-1 du LPF : le journal des ventes (une écriture par facture, acompte et avoir) puis le journal de banque (une par paiement).' },
  { path: 'banque', label: 'Journal de banque', hint: 'Les paiements de la période au format du FEC : banque au débit, client au crédit (un remboursement à l’inverse).' },
  { path: 'documents.csv', label: 'Documents (CSV)', hint: 'Les documents émis sur la période, avec leurs totaux, le payé et le reste dû.' },
  { path: 'lignes.csv', label: 'Lignes (CSV)', hint: 'Chaque ligne des documents émis : désignation, quantité, prix, TVA, totaux.' },
  { path: 'paiements.csv', label: 'Paiements (CSV)', hint: 'Les paiements reçus sur la période, avec leur document.' },
];

export default async function ExportsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const staff = await requireStaffOrg();
  const query = await searchParams;
  const asked = Period.safeParse({ from: query.from, to: query.to });
  const period = asked.success ? asked.data : currentMonth();
  const invalid = (query.from !== undefined || query.to !== undefined) && !asked.success;
  const settings = await getExportSettings(staff.db, staff.orgId);
  const qs = new URLSearchParams(period).toString();
  const preset = presetOf(period);
  return (
    <>
      <div className="page-header">
        <h1>Exports comptables</h1>
      </div>
      <p className="muted">Pour votre expert-comptable : le journal des ventes au format FEC et les documents, lignes et paiements d’une période en CSV.</p>
      <section className="card stack" aria-labelledby="period-title">
        <h2 id="period-title">Période</h2>
        {invalid && (
          <p className="form-error" role="alert">
            Période non valable : le début doit précéder la fin. Le mois en cours est affiché.
          </p>
        )}
        <nav aria-label="Périodes usuelles" className="row-actions">
          {PERIOD_PRESETS.map((p) => (
            <ChipLink key={p.key} href={`/exports?${new URLSearchParams(presetPeriod(p.key))}`} current={preset === p.key}>
              {p.label}
            </ChipLink>
          ))}
        </nav>
        <form className="row-actions" method="get">
          <label>
            Du <input type="date" name="from" defaultValue={period.from} required />
          </label>
          <label>
            au <input type="date" name="to" defaultValue={period.to} required />
          </label>
          <Button type="submit">
            Choisir
          </Button>
        </form>
        <p className="muted">
          Du {formatDay(period.from, 'fr', 'long')} au {formatDay(period.to, 'fr', 'long')}, dates d’émission (paiements : date de réception).
        </p>
        <ul className="stack" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {DOWNLOADS.map((d) => (
            <li key={d.path}>
              <DownloadButton href={`/exports/${d.path}?${qs}`} download>
                {d.label}
              </DownloadButton>
              <div className="hint">{d.hint}</div>
            </li>
          ))}
        </ul>
      </section>
      <section className="card" aria-labelledby="accounts-title">
        <h2 id="accounts-title">Comptes et journaux</h2>
        <AccountsForm values={settings} readOnly={staff.role !== 'owner' && staff.role !== 'admin'} />
      </section>
    </>
  );
}
