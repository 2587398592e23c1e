import type { RECURRING_FREQUENCIES } from '@/db/schema/recurring';
import { CODE_MESSAGES } from '@/lib/platform/i18n';

/** French labels of the recurring templates' pages; the API's names and reasons stay English. Browser-safe. */

export type Frequency = (typeof RECURRING_FREQUENCIES)[number];
export type TemplateStatus = 'active' | 'paused';

export const FREQUENCY_LABELS: Record<Frequency, string> = {
  monthly: 'Mensuelle',
  quarterly: 'Trimestrielle',
  yearly: 'Annuelle',
};

/** "chaque mois": the frequency in a sentence. */
export const FREQUENCY_SENTENCES: Record<Frequency, string> = {
  monthly: 'chaque mois',
  quarterly: 'chaque trimestre',
  yearly: 'chaque année',
};

/** The list's status chips, in their order. */
export const TEMPLATE_STATUSES: TemplateStatus[] = ['active', 'paused'];
export const TEMPLATE_STATUS_LABELS: Record<TemplateStatus, string> = { active: 'actif', paused: 'en pause' };
export const TEMPLATE_STATUS_CHIPS: Record<TemplateStatus, string> = { active: 'chip-green', paused: 'chip-grey' };

/** The list's filters, read from its URL. */
export const RECURRING_LIST_FILTERS = ['status', 'contact_id', 'cursor'] as const;

export const GENERATION_STATUS_LABELS: Record<'generated' | 'sent' | 'failed', string> = {
  generated: 'brouillon créé',
  sent: 'finalisée et envoyée',
  failed: 'échec',
};

export const GENERATION_STAGE_LABELS: Record<'generate' | 'finalize' | 'send', string> = {
  generate: 'à la création du brouillon',
  finalize: 'à la finalisation',
  send: 'à l’envoi',
};

export const SOURCE_LABELS: Record<'run' | 'schedule', string> = { run: 'générée à la main', schedule: 'calendrier' };

/**
 * A failure's reason as kept by lib/domain/recurring ("no_recipient: the contact has no e-mail…", "validation_error: …"), in
 * French when its code is in the catalogue; the reason as recorded otherwise (the page shows it in full beside).
 */
export function failureText(reason: string | null): string {
  if (!reason) return 'Raison inconnue.';
  const code = /^([a-z_]+):/.exec(reason)?.[1];
  if (code === 'debit_failed') return 'La banque a refusé le prélèvement : la facture reste due et suit ses relances.';
  if (code && code !== 'validation_error' && CODE_MESSAGES[code]) return CODE_MESSAGES[code]!;
  return 'La facture n’a pas pu être générée telle que le modèle la décrit : vérifiez son client et ses lignes.';
}

/** A template's name on its pages: its object, else its first line. */
export const templateName = (t: { title: string | null; items: ReadonlyArray<{ description: string }> }) => t.title ?? t.items[0]?.description ?? 'Modèle sans objet';
