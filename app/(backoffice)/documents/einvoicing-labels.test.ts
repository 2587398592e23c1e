import { expect, it } from 'vitest';
import { einvoicingAlert, lifecycleChip, lifecycleLabel, transmissionBadge } from './einvoicing-labels';

it('flags what staff must act on in the documents list: a failed transmission, a 213 rejection, a 210 refusal', () => {
  expect(einvoicingAlert({ transmission_status: 'failed', lifecycle_status: null })).toEqual({ label: 'Transmission en échec', chip: 'chip-red' });
  expect(einvoicingAlert({ transmission_status: 'sent', lifecycle_status: 'rejetee' })).toEqual({ label: 'Rejetée', chip: 'chip-red' });
  expect(einvoicingAlert({ transmission_status: 'sent', lifecycle_status: 'refusee' })).toEqual({ label: 'Refusée', chip: 'chip-red' });
  for (const status of [null, 'deposee', 'mise_a_disposition', 'en_litige', 'encaissee']) {
    expect(einvoicingAlert({ transmission_status: 'sent', lifecycle_status: status })).toBeNull();
  }
  expect(einvoicingAlert({ transmission_status: 'not_required', lifecycle_status: null })).toBeNull();
});

it('names every lifecycle token in French, with a chip by what it means for payment', () => {
  expect(lifecycleLabel('deposee')).toBe('Déposée');
  expect(lifecycleLabel('encaissee')).toBe('Encaissée');
  expect(lifecycleLabel('code_250')).toBe('Statut 250');
  expect([lifecycleChip('rejetee'), lifecycleChip('en_litige'), lifecycleChip('encaissee'), lifecycleChip('deposee')]).toEqual(['chip-red', 'chip-amber', 'chip-green', 'chip-blue']);
});

it('the transmission badge: where the invoice stands at the PA, its latest status once reported, red for an alert', () => {
  expect(transmissionBadge({ transmission_status: 'not_required', lifecycle_status: null })).toBeNull();
  expect(transmissionBadge({ transmission_status: 'pending', lifecycle_status: null })).toEqual({ label: 'PA : En attente', chip: 'chip-amber', alert: false });
  expect(transmissionBadge({ transmission_status: 'sent', lifecycle_status: null })).toEqual({ label: 'PA : Transmise', chip: 'chip-green', alert: false });
  expect(transmissionBadge({ transmission_status: 'sent', lifecycle_status: 'deposee' })).toMatchObject({ label: 'PA : Déposée', alert: false });
  expect(transmissionBadge({ transmission_status: 'sent', lifecycle_status: 'rejetee' })).toEqual({ label: 'PA : Rejetée', chip: 'chip-red', alert: true });
  expect(transmissionBadge({ transmission_status: 'failed', lifecycle_status: null })).toEqual({ label: 'PA : Transmission en échec', chip: 'chip-red', alert: true });
});
