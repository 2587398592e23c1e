import type { DocumentType } from '@/db/schema/billing';
import { addDays, dueDateFromTerms, endOfMonth } from '@/lib/platform/dates';
import { ApiError } from '@/lib/platform/errors';
import { belowLegalFloors } from '@/lib/domain/invoice-settings';
import { Dec, exemptionReason, FRANCHISE_REASON, normalizeRate, type VatCategory } from '@/lib/platform/money';

/**
 * The document's own rules, checked when a document is sealed (docs/billing.md, "Finalization rules"): a draft
 * may hold anything its schema accepts, a finalized invoice must be one a PA and a tax inspector accept. Pure:
 * the caller passes what will be frozen (buyer snapshot, seller, settings, final dates).
 */

/** One refusal: the field it concerns (dotted path), the API's message, the back-office's French one. */
export interface FinalizationRefusal {
  field: string;
  message: string;
  fr: string;
}

export interface FinalizationFacts {
  doc: {
    type: DocumentType;
    operation_nature: string | null;
    issue_date: string;
    due_date: string | null;
    payment_terms: string | null;
  };
  items: ReadonlyArray<{ kind: string; vat_rate: string; vat_category: VatCategory; vat_exemption_reason: string | null }>;
  buyer: { type: string; country: string | null; siret: string | null; siren: string | null; vat_intra: string | null };
  seller: { country: string | null; vat_number: string | null };
  settings: { penalty_rate: string | null; recovery_fee: number };
}

/** The 422 of a refused finalization: every refusal at once; `field` names the first, the message lists them all. */
export class FinalizationRefused extends ApiError {
  constructor(readonly refusals: readonly FinalizationRefusal[]) {
    super(422, 'validation_error', refusals.map((r) => r.message).join(' '), refusals[0]?.field ?? null);
  }
}

/**
 * VAT rates of the French territories (CGI art. 278 to 281 nonies, 296 for the overseas departments, 297 for
 * Corsica), all in BR-FR-16's list: metropolitan 20, 10, 5.5, 2.1; Corsica 13, 0.9; Guadeloupe, Martinique and
 * La Réunion 8.5, 2.1, 1.75, 1.05. BR-FR-16 also lists rates no longer in force (19.6 and 7 until 2013).
 */
export const FRENCH_VAT_RATES = ['20.00', '10.00', '5.50', '2.10', '13.00', '0.90', '8.50', '1.75', '1.05'] as const;

/** The member states of the EU VAT territory (ISO 3166-1 alpha-2; Greece's VAT prefix EL is GR here). */
export const EU_COUNTRIES = new Set([
  'AT', 'BE', 'BG', 'CY', 'CZ', 'DE', 'DK', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR', 'HU', 'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PL', 'PT', 'RO', 'SE', 'SI', 'SK',
]);

const country = (c: string | null) => (c ?? 'FR').toUpperCase();
const blank = (s: string | null | undefined) => !s?.trim();

/**
 * The latest due date C. com. L441-10 I allows between businesses: 60 days from the issue date, or 45 days end of
 * month (either reading: the end of the month 45 days after issue, or 45 days after the end of the issue's month).
 */
export function latestB2bDueDate(issueDate: string): string {
  return [addDays(issueDate, 60), endOfMonth(addDays(issueDate, 45)), addDays(endOfMonth(issueDate), 45)].sort().at(-1)!;
}

/** Every rule the document breaks (empty: it may be sealed). Quotes and credit notes: see the rules' scope below. */
export function checkFinalizable(facts: FinalizationFacts): FinalizationRefusal[] {
  const { doc, items, buyer, seller, settings } = facts;
  const out: FinalizationRefusal[] = [];
  const refuse = (field: string, message: string, fr: string) => out.push({ field, message: `${field}: ${message}`, fr });
  // A quote is not an invoice (its lines are checked again on the invoice made from it); a credit note mirrors the
  // invoice it corrects — buyer, lines, categories — and refusing it would leave that invoice uncorrectable.
  if (doc.type !== 'facture' && doc.type !== 'acompte') return out;

  const business = buyer.type === 'professionnel';
  const buyerCountry = country(buyer.country);
  const sellerCountry = country(seller.country);

  // Mandatory mentions (C. com. L441-9, CGI ann. II 242 nonies A, décret 2022-1299).
  if (!doc.operation_nature) {
    refuse(
      'operation_nature',
      'required to finalize an invoice: biens, services or mixte (nature of the operation, a mandatory mention since décret 2022-1299).',
      'La nature de l’opération (biens, services ou mixte) est une mention obligatoire : choisissez-la avant de finaliser.',
    );
  }
  if (business && buyerCountry === 'FR' && blank(buyer.siret) && blank(buyer.siren)) {
    refuse(
      'contact.siret',
      'the buyer is a French business: its SIREN (or SIRET) is a mandatory mention (décret 2022-1299) and BR-FR-11 requires it; set the contact’s siret.',
      'Le client est une entreprise française : son SIREN/SIRET est une mention obligatoire. Renseignez le SIRET du contact.',
    );
  }

  // Late-payment mentions printed for a business buyer (C. com. L441-10, D441-5), from settings possibly older than the floors.
  if (business) {
    const floors = belowLegalFloors(settings, doc.issue_date);
    if (floors.recovery_fee) {
      refuse(
        'settings.recovery_fee',
        'the invoice settings’ recovery indemnity is below €40 (C. com. D441-5): set recovery_fee to at least 4000.',
        'L’indemnité forfaitaire de recouvrement des réglages est inférieure à 40 € (C. com. D441-5) : corrigez les réglages de facturation.',
      );
    }
    if (floors.penalty_rate) {
      refuse(
        'settings.penalty_rate',
        `${floors.penalty_rate.slice('penalty_rate: '.length)}.`,
        'Le taux des pénalités de retard des réglages est inférieur à 3 fois le taux d’intérêt légal (C. com. L441-10) : corrigez les réglages de facturation.',
      );
    }
    // L441-10 I: at most 60 days from issue, or 45 days end of month.
    const latest = latestB2bDueDate(doc.issue_date);
    if (doc.due_date && doc.due_date > latest) {
      refuse(
        'due_date',
        `between businesses payment is due within 60 days of issue or 45 days end of month (C. com. L441-10): ${doc.due_date} is after ${latest}.`,
        `Entre professionnels, le délai de paiement est au plus de 60 jours après la facture ou 45 jours fin de mois (C. com. L441-10) : échéance au plus tard le ${latest}.`,
      );
    }
    if (!blank(doc.payment_terms) && dueDateFromTerms(doc.issue_date, doc.payment_terms) > latest) {
      refuse(
        'payment_terms',
        'between businesses the payment terms may not exceed 60 days from issue or 45 days end of month (C. com. L441-10).',
        'Entre professionnels, les conditions de paiement ne peuvent dépasser 60 jours ou 45 jours fin de mois (C. com. L441-10).',
      );
    }
  }

  // VAT: rates, categories, exemption reasons, and the buyer each category needs.
  const franchise = items.some((it) => it.vat_exemption_reason === FRANCHISE_REASON);
  const outOfScope = items.some((it) => it.vat_category === 'O');
  let exemptReason: string | null = null;
  const seen = new Set<string>();
  items.forEach((it, i) => {
    const field = (key: string) => `items.${i}.${key}`;
    const rate = normalizeRate(it.vat_rate);
    const reason = exemptionReason(it.vat_exemption_reason);
    const once = (key: string) => !seen.has(key) && seen.add(key);
    if (it.vat_category === 'S') {
      if (!(FRENCH_VAT_RATES as readonly string[]).includes(rate)) {
        refuse(
          field('vat_rate'),
          `${new Dec(rate).toFixed()} % is not a French VAT rate (${FRENCH_VAT_RATES.map((r) => new Dec(r).toFixed()).join(', ')}; BR-FR-16).`,
          `${new Dec(rate).toFixed()} % n’est pas un taux de TVA français (20, 10, 5,5, 2,1 ; Corse et DOM : 13, 8,5, 1,75, 1,05, 0,9).`,
        );
      }
      if (franchise) {
        refuse(
          field('vat_rate'),
          'the document is under the franchise en base (art. 293 B du CGI): no line may bear VAT.',
          'Le document relève de la franchise en base (art. 293 B du CGI) : aucune ligne ne peut porter de TVA.',
        );
      }
    } else if (!new Dec(rate).isZero()) {
      refuse(field('vat_category'), `${it.vat_category} applies at a 0 % rate only.`, `La catégorie ${it.vat_category} ne s’applique qu’à un taux de 0 %.`);
    }
    if (outOfScope && it.vat_category !== 'O' && once('O-mixed')) {
      refuse(
        field('vat_category'),
        'a document with lines not subject to VAT (O) may have no other VAT category (BR-O-11): invoice them separately.',
        'Les opérations hors du champ de la TVA ne peuvent être mêlées à d’autres catégories sur une même facture : facturez-les séparément.',
      );
    }
    if (it.vat_exemption_reason && (!reason || reason.category !== it.vat_category)) {
      refuse(
        field('vat_exemption_reason'),
        `${it.vat_exemption_reason} is not an exemption reason of category ${it.vat_category}${it.vat_category === 'S' || it.vat_category === 'Z' ? ' (S and Z take none: BR-S-10, BR-Z-10)' : ''}.`,
        `Le motif d’exonération ${it.vat_exemption_reason} ne correspond pas à la catégorie ${it.vat_category}.`,
      );
    }
    if (it.vat_category === 'E' && it.kind === 'product') {
      if (!it.vat_exemption_reason) {
        refuse(
          field('vat_category'),
          'a 0 % line needs its VAT category: Z (zero rate), E with its exemption reason (vat_exemption_reason: VATEX-FR-FRANCHISE for art. 293 B, VATEX-FR-CGI261-… for art. 261), AE, K, G or O.',
          'Une ligne à 0 % doit préciser sa catégorie de TVA : taux zéro, exonération avec son motif (franchise en base art. 293 B, art. 261 du CGI…), autoliquidation, livraison intracommunautaire, exportation ou hors champ.',
        );
      } else if (reason?.category === 'E') {
        if (exemptReason && exemptReason !== reason.code) {
          refuse(
            field('vat_exemption_reason'),
            `every exempt line of a document shares one exemption reason (one E breakdown, BR-E-01): ${exemptReason} above.`,
            'Toutes les lignes exonérées d’un document doivent avoir le même motif d’exonération.',
          );
        }
        exemptReason ??= reason.code;
      }
    }
    if (it.vat_category === 'AE' && once('AE')) {
      if (!business || blank(buyer.vat_intra)) {
        refuse(
          business ? 'contact.vat_intra' : 'contact.type',
          'reverse charge (AE) needs a business buyer with a VAT number (BR-AE-02).',
          'L’autoliquidation exige un client professionnel avec un numéro de TVA intracommunautaire.',
        );
      }
      if (blank(seller.vat_number)) {
        refuse('seller.vat_number', 'reverse charge (AE) needs the seller’s VAT number (BR-AE-02).', 'L’autoliquidation exige votre numéro de TVA intracommunautaire (fiche de l’organisation).');
      }
    }
    if (it.vat_category === 'K' && once('K')) {
      if (!business) {
        refuse('contact.type', 'an intra-EU supply (K) is made to a business buyer (BR-IC-02).', 'Une livraison intracommunautaire s’adresse à un client professionnel.');
      }
      if (!EU_COUNTRIES.has(buyerCountry) || buyerCountry === sellerCountry) {
        refuse(
          'contact.country',
          `an intra-EU supply (K) is made to a buyer in another EU member state (buyer country ${buyerCountry}).`,
          'Une livraison intracommunautaire s’adresse à un client d’un autre État membre de l’UE.',
        );
      }
      if (blank(buyer.vat_intra)) {
        refuse('contact.vat_intra', 'an intra-EU supply (K) needs the buyer’s VAT number (BR-IC-02).', 'Une livraison intracommunautaire exige le numéro de TVA intracommunautaire du client.');
      }
      if (blank(seller.vat_number)) {
        refuse('seller.vat_number', 'an intra-EU supply (K) needs the seller’s VAT number (BR-IC-02).', 'Une livraison intracommunautaire exige votre numéro de TVA intracommunautaire.');
      }
    }
    if (it.vat_category === 'G' && once('G') && EU_COUNTRIES.has(buyerCountry)) {
      refuse(
        'contact.country',
        `an export (G) is made to a buyer outside the EU (buyer country ${buyerCountry}).`,
        'Une exportation s’adresse à un client situé hors de l’Union européenne.',
      );
    }
  });
  return out;
}

/** Throws the refusals of `checkFinalizable`, all at once. */
export function assertFinalizable(facts: FinalizationFacts): void {
  const refusals = checkFinalizable(facts);
  if (refusals.length) throw new FinalizationRefused(refusals);
}
