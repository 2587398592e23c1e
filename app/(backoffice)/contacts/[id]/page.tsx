import type { Metadata } from 'next';
import Link from 'next/link';
import { Fragment } from 'react';
import { ChipLink, DataTable, DownloadButton, LinkButton, StatusChip, SubmitButton } from '@/components/ui';
import { consentHistory, type ContactField } from '@/lib/domain/contacts';
import { formatInstant, plural, pluralWord } from '@/lib/platform/format';
import { requireStaffOrg } from '@/lib/platform/next';
import { deleteContactAction, restoreContactAction } from '../actions';
import { contactState, FIELD_LABELS, formatValue, LEAD_STATUS_CHIPS, TYPE_LABELS } from '../labels';
import { loadContactOr404 } from '../load';
import { ClientBilling } from './client-billing';
import { EraseButton } from './erase-button';
import { SepaMandate } from './sepa-mandate';

export const metadata: Metadata = { title: 'Contact' };

const when = (iso: string | null) => formatInstant(iso) || '—';

const IDENTITY: ContactField[] = ['first_name', 'last_name', 'company', 'email', 'phone', 'address', 'postal_code', 'city', 'country', 'siret'];
const BILLING: ContactField[] = ['vat_intra', 'default_payment_terms', 'default_discount_terms', 'preferred_language', 'reminder_opt_out'];
const SALES: ContactField[] = ['lead_status', 'lead_score', 'notes'];

export default async function ContactPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<{ merged?: string }> }) {
  const staff = await requireStaffOrg();
  const contact = await loadContactOr404(staff, (await params).id);
  const history = await consentHistory(staff.db, staff.orgId, contact.id);
  const merged = Number((await searchParams).merged) || 0;
  const state = contactState(contact);
  const values = contact as unknown as Record<ContactField, unknown>;
  const name = contact.display_name ?? 'Contact effacé';

  const props = (fields: ContactField[]) => (
    <dl className="props">
      {fields.map((f) => (
        <Fragment key={f}>
          <dt>{FIELD_LABELS[f]}</dt>
          <dd>
            {formatValue(f, values[f])}
            {f === 'siret' && contact.siren && <span className="muted"> · SIREN {contact.siren}</span>}
          </dd>
        </Fragment>
      ))}
    </dl>
  );

  return (
    <>
      <div className="page-header">
        <div>
          <p className="muted">
            <Link href="/contacts">Contacts</Link> /
          </p>
          <h1>{name}</h1>
          <div className="toolbar">
            <StatusChip tone="chip-grey">{TYPE_LABELS[contact.type]}</StatusChip>
            {contact.lead_status && <StatusChip tone={LEAD_STATUS_CHIPS[contact.lead_status]}>{formatValue('lead_status', contact.lead_status)}</StatusChip>}
            {state && <StatusChip tone={state.chip}>{state.label}</StatusChip>}
          </div>
        </div>
        <div className="actions">
          {!state && (
            <>
              <LinkButton variant="primary" href={`/contacts/${contact.id}/edit`}>
                Modifier
              </LinkButton>
              <form action={deleteContactAction}>
                <input type="hidden" name="id" value={contact.id} />
                <SubmitButton variant="danger">Supprimer</SubmitButton>
              </form>
            </>
          )}
          {state?.label === 'supprimé' && (
            <form action={restoreContactAction}>
              <input type="hidden" name="id" value={contact.id} />
              <SubmitButton>Restaurer</SubmitButton>
            </form>
          )}
        </div>
      </div>

      {merged > 0 && (
        <div className="notice notice-success" role="status">
          {plural(merged, 'contact')} {pluralWord(merged, 'fusionné')} dans celui-ci.
        </div>
      )}
      {contact.erased_at && (
        <div className="notice notice-warning">Données personnelles effacées le {when(contact.erased_at)} (RGPD). Cette fiche ne garde que son identifiant.</div>
      )}
      {contact.merged_into_id && !contact.erased_at && (
        <div className="notice notice-warning">
          Fusionné le {when(contact.deleted_at)} dans <Link href={`/contacts/${contact.merged_into_id}`}>un autre contact</Link>. Une fusion ne se défait pas.
        </div>
      )}
      {state?.label === 'supprimé' && (
        <div className="notice notice-warning">Supprimé le {when(contact.deleted_at)}. Il n’apparaît plus dans les listes ; vous pouvez le restaurer.</div>
      )}

      <div className="grid-2">
        <section className="card">
          <h2>Identité et coordonnées</h2>
          {props(IDENTITY)}
        </section>
        <div>
          <section className="card">
            <h2>Suivi commercial</h2>
            {props(SALES)}
            <div className="toolbar" style={{ marginTop: 12 }}>
              {contact.tags.length ? (
                contact.tags.map((t) => (
                  <ChipLink key={t} tone="chip-blue" href={`/contacts?tag=${encodeURIComponent(t)}`}>
                    {t}
                  </ChipLink>
                ))
              ) : (
                <span className="muted">Aucune étiquette</span>
              )}
            </div>
          </section>
          <section className="card">
            <h2>Facturation</h2>
            {props(BILLING)}
          </section>
        </div>
      </div>

      {!contact.erased_at && <ClientBilling db={staff.db} orgId={staff.orgId} contactId={contact.id} active={!state} />}

      {!contact.erased_at && <SepaMandate db={staff.db} orgId={staff.orgId} contactId={contact.id} />}

      <section className="card">
        <h2>Consentement marketing</h2>
        <dl className="props">
          <dt>{FIELD_LABELS.marketing_consent}</dt>
          <dd>{formatValue('marketing_consent', contact.marketing_consent)}</dd>
          <dt>{FIELD_LABELS.consent_source}</dt>
          <dd>{formatValue('consent_source', contact.consent_source)}</dd>
          <dt>{FIELD_LABELS.legal_basis}</dt>
          <dd>{formatValue('legal_basis', contact.legal_basis)}</dd>
          <dt>Dernier changement</dt>
          <dd>{when(contact.consent_updated_at)}</dd>
        </dl>
        <h2 style={{ marginTop: 16 }}>Historique</h2>
        {history.length === 0 ? (
          <p className="muted">Aucun changement enregistré.</p>
        ) : (
          <DataTable
            label="Historique du consentement"
            columns={[
              { key: 'date', header: 'Date', cell: (h) => when(h.changed_at) },
              { key: 'consentement', header: 'Consentement', cell: (h) => formatValue('marketing_consent', h.marketing_consent) },
              { key: 'source', header: 'Source', cell: (h) => h.source ?? '—' },
              { key: 'base_legale', header: 'Base légale', cell: (h) => h.legal_basis ?? '—' },
            ]}
            rows={history}
            rowKey={(_, i) => i}
          />
        )}
      </section>

      <section className="card">
        <h2>Données personnelles (RGPD)</h2>
        <p className="muted">
          L’export rassemble tout ce que Paraphe détient sur ce contact (droit d’accès et de portabilité). L’effacement supprime
          ses données personnelles (droit à l’effacement).
        </p>
        <div className="form-actions">
          <DownloadButton href={`/v1/contacts/${contact.id}/export`} download={`contact-${contact.id}.json`}>
            Exporter (JSON)
          </DownloadButton>
        </div>
        {!contact.erased_at && (
          <div style={{ marginTop: 12 }}>
            <EraseButton id={contact.id} name={name} />
          </div>
        )}
      </section>

      <p className="muted">
        Créé le {when(contact.created_at)} · modifié le {when(contact.updated_at)} · <code>{contact.id}</code>
      </p>
    </>
  );
}
