import { describe, expect, it } from 'vitest';
import { DOCUMENT_TYPES } from '@/db/schema/billing';
import { documentName, historyLabel, STATUSES, statusLabel, TYPE_LABELS } from './labels';

describe('the status chips and history agree with the document (issue 35, item 12)', () => {
  it('every status of every document type, as its chip says it', () => {
    const chips = Object.fromEntries(DOCUMENT_TYPES.map((type) => [type, STATUSES.map((status) => statusLabel({ type, status })).join(', ')]));
    expect(chips).toEqual({
      devis: 'brouillon, finalisé, envoyé, payé, accepté, refusé, expiré, annulé',
      facture: 'brouillon, finalisée, envoyée, payée, acceptée, refusée, expirée, annulée',
      acompte: 'brouillon, finalisée, envoyée, payée, acceptée, refusée, expirée, annulée',
      avoir: 'brouillon, finalisé, envoyé, payé, accepté, refusé, expiré, annulé',
    });
  });

  it('a history line and a draft’s name', () => {
    expect(`${TYPE_LABELS.acompte} AC-2026-00001 ${historyLabel('acompte', 'created')}`).toBe('Facture d’acompte AC-2026-00001 créée');
    expect(historyLabel('facture', 'payment')).toBe('paiement reçu');
    expect(historyLabel('avoir', 'finalized')).toBe('finalisé');
    expect(DOCUMENT_TYPES.map((type) => documentName({ type, number: null }))).toEqual(['Brouillon de devis', 'Brouillon de facture', 'Brouillon de facture d’acompte', 'Brouillon d’avoir']);
  });
});
