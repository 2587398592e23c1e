import type { Metadata } from 'next';
import Link from 'next/link';
import { Fragment } from 'react';
import { formatDay, formatInstant, formatMoney } from '@/lib/platform/format';
import { requireStaffOrg } from '@/lib/platform/next';
import { computeTotals, type VatCategory } from '@/lib/platform/money';
import { mandateOfContact } from '@/lib/domain/payments';
import { templateHistory } from '@/lib/domain/recurring';
import { ItemsTable } from '../../documents/[id]/items-table';
import { dayOrdinal } from '@/lib/platform/i18n';
import { OPERATION_NATURE_LABELS, STATUS_CHIPS, statusLabel } from '../../documents/labels';
import {
  FREQUENCY_LABELS,
  FREQUENCY_SENTENCES,
  failureText,
  GENERATION_STAGE_LABELS,
  GENERATION_STATUS_LABELS,
  SOURCE_LABELS,
  TEMPLATE_STATUS_CHIPS,
  TEMPLATE_STATUS_LABELS,
  templateName,
} from '../labels';
import { contactChoice, loadTemplateOr404 } from '../load';
import { TemplateActions } from './template-actions';
import { DataTable, StatusChip } from '@/components/ui';

export const metadata: Metadata = { title: 'Modèle récurrent' };

/** A template: its settings and lines, its actions, and its history (the invoices it generated, its failures and why). */
export default async function TemplatePage({ params }: { params: Promise<{ id: string }> }) {
  const staff = await requireStaffOrg();
  const t = await loadTemplateOr404(staff, (await params).id);
  const [contact, history, mandate] = await Promise.all([
    contactChoice(staff, t.contact_id),
    templateHistory(staff.db, staff.orgId, t.id),
    t.auto_collect_sepa ? mandateOfContact(staff.db, staff.orgId, t.contact_id) : null,
  ]);
  const items = t.items.map((it) => ({ ...it, vat_category: it.vat_category as VatCategory }));
  const totals = computeTotals(items);
  const lines = items.map((it, i) => ({ ...it, total_ht: totals.lines[i]!.total_ht }));
  const paused = t.status === 'paused';

  const settings: Array<[string, React.ReactNode]> = [];
  const setting = (label: string, value: React.ReactNode) => settings.push([label, value]);
  setting('Client', contact ? <Link href={`/contacts/${contact.id}`}>{contact.name}</Link> : 'Contact supprimé');
  setting('Fréquence', `${FREQUENCY_LABELS[t.frequency]} : ${FREQUENCY_SENTENCES[t.frequency]}, le ${dayOrdinal(t.anchor_day)} (ou le dernier jour d’un mois plus court)`);
  setting('Prochaine facture', paused ? 'aucune tant que le modèle est en pause' : formatDay(t.next_generation_date));
  setting('Nature de l’opération', t.operation_nature ? OPERATION_NATURE_LABELS[t.operation_nature] : <span className="muted">non renseignée</span>);
  setting('Envoi', t.auto_send ? 'Finalisée et envoyée par e-mail automatiquement' : 'Brouillon à relire et envoyer soi-même');
  setting(
    'Prélèvement SEPA',
    t.auto_collect_sepa
      ? `Automatique après l’envoi${mandate?.status === 'active' ? ' (mandat actif)' : ' : le client n’a pas de mandat actif, le prélèvement échouera'}`
      : 'Non',
  );
  if (t.notes) setting('Notes', t.notes);

  return (
    <>
      <div className="page-header">
        <div>
          <p className="muted">
            <Link href="/recurring">Facturation récurrente</Link> /
          </p>
          <h1>{templateName(t)}</h1>
          <div className="toolbar">
            <StatusChip tone={TEMPLATE_STATUS_CHIPS[t.status]} data-testid="template-status">
              {TEMPLATE_STATUS_LABELS[t.status]}
            </StatusChip>
            {paused && t.paused_at && <span className="muted">depuis le {formatInstant(t.paused_at, { time: null })}</span>}
          </div>
        </div>
      </div>

      {t.last_error && (
        <div className="notice notice-warning" role="note" data-testid="template-last-error">
          <strong>Dernier échec le {formatInstant(t.last_error_at, { time: 'short' })} :</strong> {failureText(t.last_error)}
          <div className="muted">
            <code>{t.last_error}</code>
          </div>
        </div>
      )}

      <TemplateActions id={t.id} paused={paused} autoSend={t.auto_send} />

      <div className="grid-2">
        <section className="card" aria-label="Réglages">
          <h2>Réglages</h2>
          <dl className="props">
            {settings.map(([label, value]) => (
              <Fragment key={label}>
                <dt>{label}</dt>
                <dd>{value}</dd>
              </Fragment>
            ))}
          </dl>
        </section>
        <section className="card" aria-label="Totaux">
          <h2>Chaque facture</h2>
          <dl className="totals">
            <dt>Total HT</dt>
            <dd>{formatMoney(t.total_ht)}</dd>
            <dt>Total TVA</dt>
            <dd>{formatMoney(t.total_ttc - t.total_ht)}</dd>
            <dt className="grand">Total TTC</dt>
            <dd className="grand" data-testid="template-total-ttc">
              {formatMoney(t.total_ttc)}
            </dd>
          </dl>
        </section>
      </div>

      <section className="card" aria-label="Lignes">
        <h2>Lignes</h2>
        <ItemsTable items={lines} />
      </section>

      <section className="card" aria-label="Historique">
        <h2>Historique</h2>
        {history.length === 0 ? (
          <p className="muted">Aucune facture générée pour l’instant.</p>
        ) : (
          <DataTable
            label="Factures générées et échecs"
            columns={[
              {
                key: 'periode',
                header: 'Période',
                cell: (g) => (
                  <>
                    {formatDay(g.period_start)}
                    <div className="muted">{SOURCE_LABELS[g.source]}</div>
                  </>
                ),
              },
              {
                key: 'facture',
                header: 'Facture',
                cell: (g) => (
                  <>
                    {g.document_id && g.invoice ? (
                      <>
                        <Link href={`/documents/${g.document_id}`}>{g.invoice.number ?? 'Brouillon'}</Link>{' '}
                        <StatusChip tone={STATUS_CHIPS[g.invoice.status as keyof typeof STATUS_CHIPS]}>
                          {statusLabel({ type: 'facture', status: g.invoice.status as keyof typeof STATUS_CHIPS })}
                        </StatusChip>
                      </>
                    ) : (
                      <span className="muted">aucune</span>
                    )}
                  </>
                ),
              },
              {
                key: 'resultat',
                header: 'Résultat',
                cell: (g) => (
                  <>
                    <StatusChip tone={g.status === 'failed' ? 'chip-red' : g.status === 'sent' ? 'chip-green' : 'chip-grey'}>
                      {GENERATION_STATUS_LABELS[g.status]}
                    </StatusChip>
                    {g.status === 'failed' && (
                      <div>
                        {g.stage && `Échec ${GENERATION_STAGE_LABELS[g.stage]} : `}
                        {failureText(g.error)}
                        <div className="muted">
                          <code>{g.error}</code>
                        </div>
                      </div>
                    )}
                    {g.collect_status && (
                      <div>
                        {g.collect_status === 'failed' ? (
                          <>
                            <StatusChip tone="chip-red">prélèvement refusé</StatusChip> {failureText(g.collect_error)}
                          </>
                        ) : (
                          <StatusChip tone="chip-blue">prélèvement demandé</StatusChip>
                        )}
                      </div>
                    )}
                  </>
                ),
              },
              {
                key: 'total_ttc',
                header: 'Total TTC',
                num: true,
                cell: (g) => g.invoice ? formatMoney(g.invoice.total_ttc) : <span className="muted">—</span>,
              },
            ]}
            rows={history}
            rowKey={(g) => g.id}
          />
        )}
      </section>

      <p className="muted">
        Créé le {formatInstant(t.created_at, { time: 'medium' })} · modifié le {formatInstant(t.updated_at, { time: 'medium' })} · <code>{t.id}</code>
      </p>
    </>
  );
}
