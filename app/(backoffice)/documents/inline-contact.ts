import { z } from 'zod';
import { ContactCreate, createContact } from '@/lib/domain/contacts';
import { refuse, type StaffContext } from '@/lib/platform/next';
import { identifierProblems } from '@/lib/platform/identifiers';

/*
 * "Créer « Dupont SARL »" in the editor's client picker: a contact from four fields, created through lib/domain/contacts
 * (the API's schema, its event), then picked without leaving the editor. A business is its company name; a person's
 * name is split at the first space into first and last name. The SIRET is checked by its key, as in the contact form.
 */

export const InlineContactInput = z.object({
  name: z.string().trim().min(1).max(200),
  type: z.enum(['particulier', 'professionnel']),
  email: z.string().trim().optional(),
  siret: z.string().trim().optional(),
});
export type InlineContactInput = z.input<typeof InlineContactInput>;

/** What the picker needs of the new contact (the search's ContactChoice). */
export interface CreatedContact {
  id: string;
  name: string;
  detail: string | null;
  default_payment_terms: string | null;
  default_discount_terms: string | null;
}

export async function createInlineContact({ db, orgId }: StaffContext, raw: InlineContactInput): Promise<CreatedContact> {
  const input = InlineContactInput.parse(raw);
  const business = input.type === 'professionnel';
  const [first, ...rest] = input.name.split(/\s+/);
  const siret = business && input.siret ? input.siret.replace(/\s+/g, '') : null;
  const payload = ContactCreate.parse({
    type: input.type,
    ...(business ? { company: input.name } : rest.length ? { first_name: first, last_name: rest.join(' ') } : { last_name: first }),
    email: input.email || null,
    siret,
  });
  const problems = identifierProblems({ siret: payload.siret });
  if (Object.keys(problems).length) refuse(problems);
  const contact = await createContact(db, orgId, payload);
  return {
    id: contact.id,
    name: contact.display_name ?? input.name,
    detail: contact.email,
    default_payment_terms: contact.default_payment_terms,
    default_discount_terms: contact.default_discount_terms,
  };
}
