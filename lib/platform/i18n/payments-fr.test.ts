import { describe, expect, it } from 'vitest';
import { CAPABILITY_STATUSES, ONLINE_PAYMENT_METHODS, ONLINE_PAYMENT_STATUSES } from '@/db/schema';
import { CAPABILITY_LABELS, ONLINE_METHOD_LABELS, ONLINE_STATUS_LABELS, requirementsInFrench } from './payments-fr';

describe('online payment in French', () => {
  it('says what Stripe still needs in plain words, each need once, the most precise first', () => {
    expect(
      requirementsInFrench([
        'external_account',
        'tos_acceptance.date',
        'tos_acceptance.ip',
        'company.tax_id',
        'representative.verification.document',
        'person_1AbC.first_name',
        'business_profile.url',
      ]),
    ).toEqual([
      'le compte bancaire qui reçoit les versements',
      'l’acceptation des conditions d’utilisation de Stripe',
      'le numéro d’identification de l’entreprise (SIREN)',
      'une pièce d’identité d’une personne de l’entreprise',
      'l’identité d’une personne de l’entreprise (représentant, dirigeant)',
      'le site web de l’entreprise',
    ]);
    expect(requirementsInFrench(['something_new'])).toEqual(['une autre information demandée (something_new)']);
  });

  it('words every capability state, method and online payment status', () => {
    for (const s of CAPABILITY_STATUSES) expect(CAPABILITY_LABELS[s], s).toBeTruthy();
    for (const m of ONLINE_PAYMENT_METHODS) expect(ONLINE_METHOD_LABELS[m], m).toBeTruthy();
    for (const s of ONLINE_PAYMENT_STATUSES) expect(ONLINE_STATUS_LABELS[s], s).toBeTruthy();
  });
});
