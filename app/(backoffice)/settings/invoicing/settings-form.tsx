'use client';

import Link from 'next/link';
import { useActionState } from 'react';
import { Field, FormActions, Input, MoneyInput, QuantityInput, Select, SubmitButton, TextArea } from '@/components/ui';
import { initialFormState } from '@/lib/platform/next/client';
import { VAT_EXIGIBILITY_LABELS } from '../../documents/labels';
import { saveInvoiceSettingsAction } from './actions';

interface Props {
  /** The stored settings as the form's texts (flags as "on" or ""). */
  values: Record<string, string>;
  year: string;
}

type FieldSpec = { name: string; label: string; hint?: string; kind?: 'textarea' | 'number' | 'money' | 'rate' };

const PREFIXES: FieldSpec[] = [
  { name: 'devis_prefix', label: 'Devis' },
  { name: 'facture_prefix', label: 'Factures' },
  { name: 'acompte_prefix', label: 'Factures d’acompte' },
  { name: 'avoir_prefix', label: 'Avoirs' },
];

const FLAGS: Array<{ name: string; label: string }> = [
  { name: 'auto_convert_signed_quotes', label: 'Convertir en facture un devis signé' },
  { name: 'auto_finalize_signed_invoices', label: 'Finaliser cette facture aussitôt (implique la conversion)' },
  { name: 'auto_send_signed_invoices', label: 'L’envoyer au client aussitôt (implique la finalisation)' },
];

const VAT_REGIME_LABELS: Record<string, string> = {
  reel_normal_mensuel: 'Réel normal, déclarations mensuelles (transmission décadaire)',
  reel_normal_trimestriel: 'Réel normal, déclarations trimestrielles (mensuelle)',
  reel_simplifie: 'Réel simplifié (mensuelle)',
  franchise: 'Franchise en base de TVA (bimestrielle)',
};

const EREPORTING_FLAGS: Array<{ name: string; label: string }> = [
  { name: 'b2c_sales', label: 'Transmettre les ventes aux particuliers (B2C)' },
  { name: 'international_sales', label: 'Transmettre les ventes à des entreprises à l’étranger (intra-UE, export)' },
  { name: 'payment_data', label: 'Transmettre les encaissements des prestations de services (TVA sur les encaissements)' },
];

/** The invoice settings (PUT /v1/invoice/settings): every field of the spec's table. */
export function InvoiceSettingsForm({ values, year }: Props) {
  const [state, formAction] = useActionState(saveInvoiceSettingsAction, initialFormState);
  const texts: Record<string, string> = state.texts ?? values;
  const error = (name: string) => state.errors?.[name];
  const setting = (spec: FieldSpec) => <Setting key={spec.name} spec={spec} value={texts[spec.name] ?? ''} error={error(spec.name)} />;

  return (
    <form className="form" action={formAction} key={state.attempt} noValidate>

      <section className="card">
        <h2>Numérotation</h2>
        <p className="muted">
          Chaque type a sa série, sans trou, par année : préfixe, année, numéro sur 5 chiffres (par exemple {texts.facture_prefix || 'FAC'}-{year}-00001). Un
          préfixe modifié continue la même série.
        </p>
        <div className="grid-2">{PREFIXES.map((p) => setting({ ...p, hint: '1 à 20 caractères parmi A-Z a-z 0-9 + - _ /' }))}</div>
      </section>

      <section className="card">
        <h2>Valeurs par défaut des documents</h2>
        <div className="grid-2">
          {setting({ name: 'default_validity_days', label: 'Validité des devis (jours)', hint: 'De 1 à 3650 ; 30 si vide.', kind: 'number' })}
          <Field id="settings-default_vat_exigibility" label="Exigibilité de la TVA" error={error('default_vat_exigibility')}>
            <Select name="default_vat_exigibility" defaultValue={texts.default_vat_exigibility ?? ''}>
              <option value="">Non précisée</option>
              {Object.entries(VAT_EXIGIBILITY_LABELS).map(([v, label]) => (
                <option key={v} value={v}>
                  {label}
                </option>
              ))}
            </Select>
          </Field>
          {setting({
            name: 'default_payment_terms',
            label: 'Conditions de paiement',
            hint: 'Quand le client n’a pas les siennes. « 30 jours fin de mois », « à réception »… fixent l’échéance.',
            kind: 'textarea',
          })}
          {setting({ name: 'default_discount_terms', label: 'Conditions d’escompte', hint: 'Par exemple « Pas d’escompte pour paiement anticipé ».', kind: 'textarea' })}
        </div>
      </section>

      <section className="card">
        <h2>Mentions de paiement</h2>
        <p className="muted">Imprimées sur chaque document et figées dans celui-ci à sa finalisation.</p>
        <div className="grid-2">
          {setting({ name: 'iban', label: 'IBAN', hint: 'Espaces ignorés.' })}
          {setting({ name: 'bic', label: 'BIC', hint: '8 ou 11 caractères.' })}
          {setting({ name: 'penalty_rate', label: 'Taux des pénalités de retard (%)', hint: 'Par exemple 12,5 (au moins trois fois le taux d’intérêt légal).', kind: 'rate' })}
          {setting({ name: 'recovery_fee', label: 'Indemnité forfaitaire de recouvrement (€)', hint: '40 € pour un client professionnel (C. com. L441-10).', kind: 'money' })}
        </div>
        <div style={{ marginTop: 14 }}>{setting({ name: 'footer_mentions', label: 'Mentions de pied de page', kind: 'textarea' })}</div>
      </section>

      <section className="card">
        <h2>Relances</h2>
        <p className="muted">
          Armées à l’envoi d’un document : des jours avant (nombre négatif) ou après la date de référence, chacun à 9 h (heure de Paris). Les étapes
          déjà passées à l’envoi sont sautées ; une facture payée ou annulée, un devis accepté, refusé ou expiré n’est plus relancé.
        </p>
        <div className="grid-2">
          {setting({
            name: 'payment_reminder_offsets',
            label: 'Relances de paiement (jours par rapport à l’échéance)',
            hint: 'Par exemple -3, 1, 7, 15, 30 (de -90 à 365, 10 au plus) ; vide : aucune relance automatique.',
          })}
          {setting({
            name: 'quote_expiry_reminder_offsets',
            label: 'Rappels d’expiration des devis (jours par rapport à la fin de validité)',
            hint: 'Par exemple -7, -2 (de -90 à 0) ; vide : aucun rappel.',
          })}
        </div>
      </section>

      <section className="card">
        <h2>Devis signés</h2>
        <p className="muted">Appliqué par le module de signature quand le client signe un devis. Chaque option implique la précédente.</p>
        <fieldset className="checks" style={{ gridTemplateColumns: '1fr' }}>
          <legend className="sr-only">Automatismes à la signature</legend>
          {FLAGS.map((f) => (
            <label key={f.name}>
              <input type="checkbox" name={f.name} defaultChecked={texts[f.name] === 'on'} /> {f.label}
            </label>
          ))}
        </fieldset>
      </section>

      <section className="card">
        <h2>Facturation électronique</h2>
        <p className="muted">
          La plateforme agréée, sa connexion (avec « Tester la connexion ») et l’émission des factures par elle se règlent dans{' '}
          <Link href="/settings/einvoicing">Réglages → Facturation électronique</Link>.
        </p>
      </section>

      <section className="card">
        <h2>E-reporting</h2>
        <p className="muted">
          Les ventes aux particuliers et à l’international ne passent pas par la facturation électronique : leurs données sont transmises à
          l’administration par la plateforme agréée, que Paraphe alimente. La périodicité suit le régime de TVA : décadaire (réel normal mensuel),
          mensuelle (réel normal trimestriel, réel simplifié) ou bimestrielle (franchise en base) ; encaissements mensuels, bimestriels en franchise.
        </p>
        <Field
          id="settings-ereporting_vat_regime"
          label="Régime de TVA"
          hint="Aucun : rien n’est transmis."
          error={error('ereporting_prefs.vat_regime') ?? error('ereporting_prefs')}
        >
          <Select name="ereporting_vat_regime" defaultValue={texts.ereporting_vat_regime ?? ''}>
            <option value="">Aucun (e-reporting désactivé)</option>
            {Object.entries(VAT_REGIME_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </Select>
        </Field>
        <fieldset className="checks" style={{ gridTemplateColumns: '1fr', marginTop: 12 }}>
          <legend className="sr-only">Données transmises</legend>
          {EREPORTING_FLAGS.map((f) => (
            <label key={f.name}>
              <input type="checkbox" name={`ereporting_${f.name}`} defaultChecked={texts[`ereporting_${f.name}`] === 'on'} /> {f.label}
            </label>
          ))}
        </fieldset>
      </section>

      <FormActions state={state} refused="Les réglages n’ont pas été enregistrés : corrigez les champs signalés." placed={(key) => key !== '_form'}>
        <SubmitButton pendingLabel="Enregistrement…">Enregistrer</SubmitButton>
      </FormActions>
    </form>
  );
}

/** One setting: its control chosen by its kind, in a Field. */
function Setting({ spec: { name, label, hint, kind }, value, error }: { spec: FieldSpec; value: string; error?: string }) {
  return (
    <Field id={`settings-${name}`} label={label} hint={hint} error={error}>
      {kind === 'textarea' ? (
        <TextArea name={name} defaultValue={value} rows={3} />
      ) : kind === 'money' ? (
        <MoneyInput name={name} defaultValue={value} />
      ) : kind === 'rate' ? (
        <QuantityInput name={name} defaultValue={value} />
      ) : (
        <Input name={name} defaultValue={value} inputMode={kind === 'number' ? 'numeric' : undefined} />
      )}
    </Field>
  );
}
