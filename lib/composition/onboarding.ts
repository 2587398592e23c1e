import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { contacts, documents, invoiceSettings } from '@/db/schema';
import { paymentAccountState } from '@/lib/domain/payments';
import { missingLegalMentions } from '@/lib/platform/orgs';
import { getOrg } from '@/lib/platform/orgs';

export type OnboardingStepKey = 'identity' | 'bank_details' | 'first_client' | 'first_quote' | 'online_payments' | 'einvoicing';

/** One line of the first-run checklist: `href` is the page that completes it. */
export interface OnboardingStep {
  key: OnboardingStepKey;
  done: boolean;
  label: string;
  href: string;
  /** A word on how to complete it when no page does it alone yet. */
  hint?: string;
}

/**
 * The first-run checklist of an org, in the order a newcomer completes it. Read only: the invoice settings row
 * is not created by this read (an absent row is the defaults: no IBAN, e-invoicing off).
 */
export async function onboardingSteps(db: Db, orgId: string): Promise<OnboardingStep[]> {
  const [org, [settings], [client], [quote], account] = await Promise.all([
    getOrg(db, orgId),
    db.select({ iban: invoiceSettings.iban, einvoicing_enabled: invoiceSettings.einvoicing_enabled }).from(invoiceSettings).where(eq(invoiceSettings.org_id, orgId)),
    db
      .select({ id: contacts.id })
      .from(contacts)
      .where(and(eq(contacts.org_id, orgId), isNull(contacts.deleted_at)))
      .limit(1),
    db
      .select({ id: documents.id })
      .from(documents)
      .where(and(eq(documents.org_id, orgId), eq(documents.type, 'devis')))
      .limit(1),
    paymentAccountState(db, orgId),
  ]);
  return [
    {
      key: 'identity',
      // The seller mentions an invoice must carry (identity-check.ts). The VAT number is required as well: the org
      // has no franchise-en-base flag yet (only documents carry a VAT exemption), so no org can be exempt here.
      done: missingLegalMentions(org).length === 0,
      label: 'Compléter l’identité légale (dénomination, forme, SIREN/SIRET, adresse, n° de TVA)',
      href: '/settings/organisation',
    },
    { key: 'bank_details', done: Boolean(settings?.iban?.trim()), label: 'Renseigner vos coordonnées bancaires (IBAN)', href: '/settings/invoicing' },
    { key: 'first_client', done: Boolean(client), label: 'Ajouter un premier client', href: '/contacts/new' },
    { key: 'first_quote', done: Boolean(quote), label: 'Créer un premier devis', href: '/documents/new?type=devis' },
    {
      key: 'online_payments',
      // Connected = a provider account that can take payments now (charges enabled), not one still in onboarding.
      done: account?.charges_enabled === true,
      label: 'Connecter le paiement en ligne (Stripe)',
      href: '/settings/invoicing',
      hint: 'En attendant la page Paramètres → Paiements : npm run cli -- payments:connect',
    },
    {
      key: 'einvoicing',
      // "Enrolled" means, until the e-invoicing module exists, the invoice settings' einvoicing_enabled flag (the
      // org chose to issue through the approved platform); its PDP registration is not checked yet.
      done: settings?.einvoicing_enabled === true,
      label: 'Activer la facturation électronique',
      href: '/settings/invoicing',
    },
  ];
}

/** Done steps over all steps, for "3 sur 6". */
export function onboardingProgress(steps: OnboardingStep[]): { done: number; total: number; complete: boolean } {
  const done = steps.filter((s) => s.done).length;
  return { done, total: steps.length, complete: done === steps.length };
}

/** Whether the org has any billing document (a draft counts): the dashboard's figures mean nothing before. */
export async function hasAnyDocument(db: Db, orgId: string): Promise<boolean> {
  const [row] = await db.select({ id: documents.id }).from(documents).where(eq(documents.org_id, orgId)).limit(1);
  return Boolean(row);
}
