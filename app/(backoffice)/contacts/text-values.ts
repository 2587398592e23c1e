import { CONTACT_FIELDS, type ContactField } from '@/lib/domain/contacts/client';

/*
 * Form inputs and CSV cells are text; the payload has booleans, a number, an array and enums. These helpers
 * only translate the words people type ("oui", "Gagné", "Particulier"); what they cannot translate is passed
 * through unchanged, so the payload schema refuses it with the API's own message.
 */

/** Lowercase, accents folded, every run of other characters than letters and digits one space, trimmed. */
export const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/œ/g, 'oe')
    .replace(/æ/g, 'ae')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

const words = (entries: Record<string, string[]>) =>
  new Map(Object.entries(entries).flatMap(([value, spellings]) => spellings.map((w) => [w, value] as const)));

const BOOLEANS = words({
  true: ['true', 'oui', 'o', 'yes', 'y', 'vrai', '1', 'x', 'on'],
  false: ['false', 'non', 'n', 'no', 'faux', '0', 'off'],
});

const ENUMS: Partial<Record<ContactField, Map<string, string>>> = {
  type: words({
    particulier: ['particulier', 'particuliers', 'part', 'individual', 'individuel', 'person', 'personne', 'b2c'],
    professionnel: ['professionnel', 'professionnels', 'pro', 'entreprise', 'societe', 'company', 'business', 'b2b'],
  }),
  lead_status: words({
    new: ['new', 'nouveau', 'nouvelle'],
    qualified: ['qualified', 'qualifie', 'qualifiee'],
    contacted: ['contacted', 'contacte', 'contactee'],
    won: ['won', 'gagne', 'gagnee'],
    lost: ['lost', 'perdu', 'perdue'],
  }),
  preferred_language: words({
    fr: ['fr', 'francais', 'french', 'fr fr'],
    en: ['en', 'anglais', 'english', 'en gb', 'en us'],
  }),
};

/** The payload value for one field from the text of an input or a cell; blank is null. */
export function fromText(field: ContactField, raw: string): unknown {
  const text = raw.trim();
  if (text === '') return null;
  switch (field) {
    case 'reminder_opt_out':
    case 'marketing_consent': {
      const value = BOOLEANS.get(fold(text));
      return value === undefined ? text : value === 'true';
    }
    case 'lead_score':
      // "40" and "40,0" are numbers; anything else reaches the schema as text and gets its message.
      return /^[+-]?\d+([.,]\d+)?$/.test(text) ? Number(text.replace(',', '.')) : text;
    case 'tags':
      return text.split(/[,;|]/);
    default: {
      const known = ENUMS[field];
      return known ? (known.get(fold(text)) ?? text) : raw;
    }
  }
}

/**
 * The payload of the contact form: every field, blank ones as null, so a PATCH clears what was emptied.
 * An unchecked checkbox is absent from the form data: reminder_opt_out is then false.
 */
export function formToPayload(form: FormData): Record<ContactField, unknown> {
  const payload = {} as Record<ContactField, unknown>;
  for (const field of CONTACT_FIELDS) {
    const value = form.get(field);
    if (field === 'reminder_opt_out') payload[field] = value === 'on';
    else payload[field] = typeof value === 'string' ? fromText(field, value) : null;
  }
  return payload;
}

/** The form's raw texts, to show them again beside the errors. */
export function formTexts(form: FormData): Partial<Record<ContactField, string>> {
  const texts: Partial<Record<ContactField, string>> = {};
  for (const field of CONTACT_FIELDS) {
    const value = form.get(field);
    if (typeof value === 'string') texts[field] = value;
  }
  return texts;
}

/** The texts a stored contact shows in the form: the inverse of formToPayload. */
export function contactTexts(contact: Record<ContactField, unknown>): Partial<Record<ContactField, string>> {
  const texts: Partial<Record<ContactField, string>> = {};
  for (const field of CONTACT_FIELDS) {
    const value = contact[field];
    if (field === 'reminder_opt_out') texts[field] = value ? 'on' : '';
    else if (Array.isArray(value)) texts[field] = value.join(', ');
    else texts[field] = value === null || value === undefined ? '' : String(value);
  }
  return texts;
}
