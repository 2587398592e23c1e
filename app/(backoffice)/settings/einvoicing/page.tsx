import type { Metadata } from 'next';
import Link from 'next/link';
import type { Enrollment } from '@/lib/domain/einvoicing';
import { formatInstant } from '@/lib/platform/format';
import { requireStaffOrg } from '@/lib/platform/next';
import { getInvoiceSettings } from '@/lib/domain/invoice-settings';
import { enrollAction, savePlatformAction, testPlatformAction } from './actions';
import { EnrollForm, PlatformForm } from './forms';
import { getEnrollment } from './handlers';

export const metadata: Metadata = { title: 'Facturation électronique' };

const STATUS: Record<Enrollment['status'], { label: string; chip: string }> = {
  not_enrolled: { label: 'non inscrite', chip: 'chip' },
  pending: { label: 'en attente de la plateforme', chip: 'chip chip-amber' },
  enrolled: { label: 'inscrite', chip: 'chip chip-green' },
  failed: { label: 'refusée', chip: 'chip chip-red' },
};

const text = (v: unknown) => (typeof v === 'string' ? v : '');

function EnrollmentState({ enrollment }: { enrollment: Enrollment }) {
  const status = STATUS[enrollment.status];
  return (
    <dl className="props" data-testid="enrollment">
      <dt>État</dt>
      <dd>
        <span className={status.chip} data-testid="enrollment-status">
          {status.label}
        </span>
      </dd>
      {enrollment.electronic_address && (
        <>
          <dt>Adresse électronique</dt>
          <dd>
            <code>{enrollment.electronic_address}</code>
          </dd>
        </>
      )}
      {enrollment.siren && (
        <>
          <dt>SIREN / SIRET</dt>
          <dd>
            {enrollment.siren}
            {enrollment.siret ? ` / ${enrollment.siret}` : ''}
            {enrollment.routing_code ? ` — code de routage ${enrollment.routing_code}` : ''}
          </dd>
        </>
      )}
      {enrollment.requested_at && (
        <>
          <dt>Demandée le</dt>
          <dd>{formatInstant(enrollment.requested_at)}</dd>
        </>
      )}
      {enrollment.enrolled_at && (
        <>
          <dt>Confirmée le</dt>
          <dd>{formatInstant(enrollment.enrolled_at)}</dd>
        </>
      )}
      {enrollment.reason && (
        <>
          <dt>Motif du refus</dt>
          <dd data-testid="enrollment-reason">{enrollment.reason}</dd>
        </>
      )}
    </dl>
  );
}

export default async function EinvoicingSettingsPage() {
  const staff = await requireStaffOrg();
  const [settings, enrollment] = await Promise.all([getInvoiceSettings(staff.db, staff.orgId), getEnrollment(staff.db, staff.orgId)]);
  const pdp = settings.pdp_config;
  const admin = staff.role === 'owner' || staff.role === 'admin';
  return (
    <>
      <div className="page-header">
        <h1>Facturation électronique</h1>
      </div>
      <p className="muted">
        Depuis septembre 2026, les factures entre entreprises françaises passent par une plateforme agréée (PA). Paraphe s’y connecte par
        l’interface AFNOR XP Z12-013 : il y dépose vos factures, en suit les statuts et y reçoit celles de vos fournisseurs. L’identité de
        l’entreprise se règle dans <Link href="/settings/organisation">Organisation</Link>.
      </p>
      <section className="card">
        <h2>Plateforme agréée</h2>
        {admin ? (
          <PlatformForm
            action={savePlatformAction}
            test={testPlatformAction}
            secretMask={text(pdp?.client_secret) || null}
            values={{
              base_url: text(pdp?.base_url),
              token_url: text(pdp?.token_url),
              client_id: text(pdp?.client_id),
              einvoicing_enabled: settings.einvoicing_enabled ? 'on' : '',
            }}
          />
        ) : (
          <p className="muted">{pdp ? `Connectée à ${text(pdp.base_url)}.` : 'Aucune plateforme configurée.'} Un administrateur ou le propriétaire la règle.</p>
        )}
      </section>
      <section className="card">
        <h2>Inscription à l’annuaire</h2>
        <p className="muted">
          L’annuaire national indique à vos fournisseurs par quelle plateforme vous envoyer leurs factures : votre adresse est{' '}
          <code>0225:&lt;SIREN&gt;</code>.
        </p>
        <EnrollmentState enrollment={enrollment} />
        {admin && pdp && enrollment.status !== 'enrolled' && (
          <EnrollForm
            action={enrollAction}
            label={enrollment.status === 'failed' ? 'Demander à nouveau' : enrollment.status === 'pending' ? 'Relancer la demande' : 'S’inscrire à l’annuaire'}
            values={{ siren: enrollment.siren ?? '', siret: enrollment.siret ?? '', routing_code: enrollment.routing_code ?? '' }}
          />
        )}
        {!pdp && <p data-testid="enrollment-needs-pa">Renseignez d’abord la plateforme agréée ci-dessus.</p>}
      </section>
    </>
  );
}
