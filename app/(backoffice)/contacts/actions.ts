'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { createContact, deleteContact, restoreContact, updateContact } from '@/lib/contacts/contacts';
import { eraseContact } from '@/lib/contacts/gdpr';
import { ContactCreate, type ContactField, ContactPatch } from '@/lib/contacts/schemas';
import { ApiError, fieldErrors } from '@/lib/errors';
import { requireStaffOrg } from '@/lib/http/staff';
import { formTexts, formToPayload } from './text-values';

export type ContactFormState = {
  /** Bumped on every refused submit: the form remounts with the texts typed (React resets a submitted form). */
  attempt: number;
  errors?: Record<string, string>;
  texts?: Partial<Record<ContactField, string>>;
};

/** A refusal of the domain (422 with its field, 409) shown like the schema's: beside the field, or above the form. */
function refused(prev: ContactFormState, form: FormData, errors: Record<string, string>): ContactFormState {
  return { attempt: prev.attempt + 1, errors, texts: formTexts(form) };
}

export async function createContactAction(prev: ContactFormState, form: FormData): Promise<ContactFormState> {
  const staff = await requireStaffOrg();
  const parsed = ContactCreate.safeParse(formToPayload(form));
  if (!parsed.success) return refused(prev, form, fieldErrors(parsed.error));
  const contact = await createContact(staff.db, staff.orgId, parsed.data);
  revalidatePath('/contacts');
  redirect(`/contacts/${contact.id}`);
}

export async function updateContactAction(id: string, prev: ContactFormState, form: FormData): Promise<ContactFormState> {
  const staff = await requireStaffOrg();
  const parsed = ContactPatch.safeParse(formToPayload(form));
  if (!parsed.success) return refused(prev, form, fieldErrors(parsed.error));
  try {
    await updateContact(staff.db, staff.orgId, z.uuid().parse(id), parsed.data);
  } catch (err) {
    // The rules only the stored contact can tell (still a name once merged with the stored values, still live).
    if (err instanceof ApiError && (err.status === 422 || err.status === 409)) {
      return refused(prev, form, { [err.field ?? '_form']: err.message });
    }
    throw err;
  }
  revalidatePath('/contacts');
  redirect(`/contacts/${id}`);
}

const idOf = (form: FormData) => z.uuid().parse(form.get('id'));

export async function deleteContactAction(form: FormData): Promise<void> {
  const staff = await requireStaffOrg();
  const id = idOf(form);
  await deleteContact(staff.db, staff.orgId, id);
  revalidatePath('/contacts');
  revalidatePath(`/contacts/${id}`);
}

export async function restoreContactAction(form: FormData): Promise<void> {
  const staff = await requireStaffOrg();
  const id = idOf(form);
  await restoreContact(staff.db, staff.orgId, id);
  revalidatePath('/contacts');
  revalidatePath(`/contacts/${id}`);
}

export async function eraseContactAction(form: FormData): Promise<void> {
  const staff = await requireStaffOrg();
  const id = idOf(form);
  await eraseContact(staff.db, staff.orgId, id);
  revalidatePath('/contacts');
  revalidatePath(`/contacts/${id}`);
}
