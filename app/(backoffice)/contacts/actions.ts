'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { ContactCreate, ContactPatch, createContact, deleteContact, eraseContact, restoreContact, updateContact } from '@/lib/domain/contacts';
import { buttonAction, formAction, idOf, refuse } from '@/lib/platform/next';
import { identifierProblems } from '@/lib/platform/identifiers';
import { formToPayload } from './text-values';

/**
 * A French company's SIRET and an intra-EU VAT number are checked by their keys where staff type them; the API checks
 * their shape only (an integrator's data is theirs).
 */
function checkedIdentifiers<T extends { siret?: string | null; vat_intra?: string | null; country?: string | null }>(input: T): T {
  const problems = identifierProblems({ siret: input.country && input.country !== 'FR' ? null : input.siret, vat_intra: input.vat_intra });
  if (Object.keys(problems).length) refuse(problems);
  return input;
}

export const createContactAction = formAction(
  async ({ db, orgId }, input) => {
    const contact = await createContact(db, orgId, input);
    revalidatePath('/contacts');
    redirect(`/contacts/${contact.id}`);
  },
  { input: (form: FormData) => checkedIdentifiers(ContactCreate.parse(formToPayload(form))) },
);

/** The rules only the stored contact can tell (still a name once merged with the stored values, still live) come back from the service. */
export const updateContactAction = formAction(
  async ({ db, orgId }, input, id: string) => {
    await updateContact(db, orgId, idOf(id, 'Contact'), input);
    revalidatePath('/contacts');
    redirect(`/contacts/${id}`);
  },
  { input: (form: FormData) => checkedIdentifiers(ContactPatch.parse(formToPayload(form))), notFound: 'Contact introuvable.' },
);

const ContactId = z.object({ id: z.uuid() });

/** The buttons of a contact's page: delete, restore, erase; each refreshes the list and the page. */
const contactButton = (run: typeof deleteContact) =>
  buttonAction(
    async ({ db, orgId }, { id }) => {
      await run(db, orgId, id);
      revalidatePath('/contacts');
      revalidatePath(`/contacts/${id}`);
    },
    { input: ContactId },
  );

export const deleteContactAction = contactButton(deleteContact);
export const restoreContactAction = contactButton(restoreContact);
export const eraseContactAction = contactButton(eraseContact);
