'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { createContact, deleteContact, restoreContact, updateContact } from '@/lib/contacts/contacts';
import { eraseContact } from '@/lib/contacts/gdpr';
import { ContactCreate, ContactPatch } from '@/lib/contacts/schemas';
import { buttonAction, formAction, idOf } from '@/lib/http/action';
import { formToPayload } from './text-values';

export const createContactAction = formAction(
  async ({ db, orgId }, input) => {
    const contact = await createContact(db, orgId, input);
    revalidatePath('/contacts');
    redirect(`/contacts/${contact.id}`);
  },
  { input: (form: FormData) => ContactCreate.parse(formToPayload(form)) },
);

/** The rules only the stored contact can tell (still a name once merged with the stored values, still live) come back from the service. */
export const updateContactAction = formAction(
  async ({ db, orgId }, input, id: string) => {
    await updateContact(db, orgId, idOf(id, 'Contact'), input);
    revalidatePath('/contacts');
    redirect(`/contacts/${id}`);
  },
  { input: (form: FormData) => ContactPatch.parse(formToPayload(form)), notFound: 'Contact introuvable.' },
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
