import type { ReminderStatus } from '@/db/schema/reminders';
import { plural } from '@/lib/platform/format';

/** French labels of the reminders back-office (browser-safe: types only). The API's tokens stay English. */

export const REMINDER_STATUS_LABELS: Record<ReminderStatus, { label: string; chip: string }> = {
  pending: { label: 'programmée', chip: 'chip-blue' },
  sent: { label: 'envoyée', chip: 'chip-green' },
  skipped: { label: 'sautée', chip: 'chip-grey' },
  cancelled: { label: 'annulée', chip: 'chip-grey' },
};

export const TONE_LABELS: Record<'gentle' | 'firm' | 'final', string> = {
  gentle: 'courtois',
  firm: 'ferme',
  final: 'dernier rappel',
};

const REASONS: Record<string, string> = {
  past_at_send: 'date déjà passée à l’envoi du document',
  superseded: 'remplacée par une relance plus récente, due en même temps',
  opted_out: 'le client refuse les relances',
  no_recipient: 'le client n’a pas d’adresse e-mail',
  nothing_due: 'plus rien à payer',
  quote_lapsed: 'devis arrivé à expiration',
  not_chased: 'document non relancé',
  deleted: 'supprimée',
  failed: 'échec répété de l’envoi',
  document_paid: 'facture payée',
  document_cancelled: 'document annulé',
  document_accepted: 'devis accepté',
  document_rejected: 'devis refusé',
  document_expired: 'devis expiré',
};

export const reasonLabel = (reason: string | null) => (reason ? (REASONS[reason] ?? reason) : null);

/** "3 jours avant l’échéance", "jour de l’échéance", "7 jours après la fin de validité". */
export function stepLabel(kind: string, offsetDays: number | null): string {
  if (kind === 'manual' || offsetDays === null) return 'Relance manuelle';
  const anchor = kind === 'quote_expiry' ? 'la fin de validité' : 'l’échéance';
  if (offsetDays === 0) return kind === 'quote_expiry' ? 'Dernier jour de validité' : 'Jour de l’échéance';
  const days = Math.abs(offsetDays);
  return `${plural(days, 'jour')} ${offsetDays < 0 ? 'avant' : 'après'} ${anchor}`;
}

