import { describe, expect, it } from 'vitest';
import { CONTACT_FIELDS, ContactCreate, type ContactField, ContactPatch } from '@/lib/domain/contacts';
import { contactTexts, fold, formTexts, formToPayload, fromText } from './text-values';

const form = (entries: Record<string, string>) => {
  const data = new FormData();
  for (const [k, v] of Object.entries(entries)) data.set(k, v);
  return data;
};

describe('fromText', () => {
  it('blank is null', () => {
    expect(fromText('company', '   ')).toBeNull();
    expect(fromText('marketing_consent', '')).toBeNull();
  });

  it('reads French and English yes/no', () => {
    for (const yes of ['oui', 'OUI', 'Yes', 'true', 'Vrai', '1', 'x']) expect(fromText('marketing_consent', yes)).toBe(true);
    for (const no of ['non', 'No', 'false', 'FAUX', '0']) expect(fromText('reminder_opt_out', no)).toBe(false);
    expect(fromText('marketing_consent', 'bof')).toBe('bof');
  });

  it('reads scores, keeping what is not a number as text', () => {
    expect(fromText('lead_score', ' 40 ')).toBe(40);
    expect(fromText('lead_score', '4,5')).toBe(4.5);
    expect(fromText('lead_score', 'quarante')).toBe('quarante');
  });

  it('reads enums from their French names', () => {
    expect(fromText('type', 'Particulier')).toBe('particulier');
    expect(fromText('type', 'Entreprise')).toBe('professionnel');
    expect(fromText('lead_status', 'Qualifié')).toBe('qualified');
    expect(fromText('lead_status', 'CONTACTÉE')).toBe('contacted');
    expect(fromText('preferred_language', 'Français')).toBe('fr');
    expect(fromText('lead_status', 'signé')).toBe('signé');
  });

  it('splits tags on commas, semicolons and bars', () => {
    expect(fromText('tags', 'vip, salon;2024|x')).toEqual(['vip', ' salon', '2024', 'x']);
  });

  it('leaves text fields to the schema (it trims)', () => {
    expect(fromText('company', ' Dupré ')).toBe(' Dupré ');
  });

  it('fold', () => {
    expect(fold('  Œuvre  É-mail__N°')).toBe('oeuvre e mail n');
  });
});

describe('formToPayload', () => {
  it('gives every field, blank ones null, an unchecked checkbox false', () => {
    const payload = formToPayload(form({ type: 'particulier', last_name: 'Martin', email: '', marketing_consent: 'true', lead_score: '12', tags: 'a, b' }));
    expect(Object.keys(payload)).toHaveLength(23);
    expect(payload).toMatchObject({ type: 'particulier', last_name: 'Martin', email: null, company: null, reminder_opt_out: false, marketing_consent: true, lead_score: 12, tags: ['a', ' b'] });
    expect(formToPayload(form({ reminder_opt_out: 'on' })).reminder_opt_out).toBe(true);
  });

  it('feeds the API schemas, which give their own messages', () => {
    const bad = ContactCreate.safeParse(formToPayload(form({ type: 'particulier', email: 'jeanne@', lead_score: '101' })));
    expect(bad.success).toBe(false);
    const messages = Object.fromEntries(bad.error!.issues.map((i) => [i.path.join('.'), i.message]));
    expect(messages).toMatchObject({ email: 'malformed e-mail', lead_score: 'must be between 0 and 100' });
    expect(ContactPatch.safeParse(formToPayload(form({ company: 'Dupré' }))).success).toBe(true);
  });

  it('formTexts keeps the raw texts', () => {
    expect(formTexts(form({ email: ' jeanne@ ', other: 'x' }))).toEqual({ email: ' jeanne@ ' });
  });
});

describe('contactTexts', () => {
  it('is the inverse of formToPayload', () => {
    const stored = {
      ...Object.fromEntries(CONTACT_FIELDS.map((f) => [f, null])),
      type: 'particulier',
      last_name: 'Martin',
      country: 'FR',
      reminder_opt_out: true,
      marketing_consent: false,
      lead_score: 40,
      tags: ['vip', 'salon'],
    } as Record<ContactField, unknown>;
    const texts = contactTexts(stored);
    expect(texts).toMatchObject({ type: 'particulier', last_name: 'Martin', email: '', reminder_opt_out: 'on', marketing_consent: 'false', lead_score: '40', tags: 'vip, salon' });
    const data = new FormData();
    for (const [k, v] of Object.entries(texts)) if (v) data.set(k, v);
    expect(ContactPatch.parse(formToPayload(data))).toEqual(stored);
  });
});
