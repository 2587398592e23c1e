import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documents, reminders } from '@/db/schema';
import { addDays, todayParis } from '@/lib/platform/dates';
import { documentsToExport } from '@/lib/domain/documents';
import { documentRow, line } from '@/lib/domain/documents/testing';
import { createActionWrappers, type FormState, initialFormState, type StaffSession } from '@/lib/platform/next';
import { addMembership, createUser } from '@/lib/platform/orgs';
import { remindersContext, useTempStorage } from '@/lib/domain/reminders/testing';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { type BulkOutcome, bulkDocuments, bulkSummary, readBulkForm } from './bulk';

// The list's bulk form is this handler in the action wrapper (bulk-actions.ts adds the pages' refresh): run here
// under a given session, as a server action reads it from the request's cookie.
let session: StaffSession = null;
const { formAction } = createActionWrappers(async () => session);
const bulkAction = formAction(bulkDocuments, { input: readBulkForm });

let org: TestOrg;
let other: TestOrg;
let api: Awaited<ReturnType<typeof remindersContext>>;
let cleanup: () => Promise<void>;

const form = (op: string, ids: string[]) => {
  const f = new FormData();
  f.set('op', op);
  f.set('selection', '1');
  for (const id of ids) f.append('ids', id);
  return f;
};
const run = (op: string, ids: string[]) => bulkAction(initialFormState as FormState<BulkOutcome[]>, form(op, ids));

beforeAll(async () => {
  cleanup = await useTempStorage();
  org = await createTestOrg();
  other = await createTestOrg();
  api = await remindersContext(org);
  const user = await createUser(org.db, { email: `bulk-${org.org.id}@example.fr`, password: 'long enough password' });
  await addMembership(org.db, org.org.id, user.id, 'owner');
  session = { userId: user.id, orgId: org.org.id };
}, 60_000);
afterAll(async () => cleanup());

describe('bulk actions of the documents list', () => {
  it('sends the finalized unsent ones, and reports each other with its reason', async () => {
    const client = await api.contact({ email: 'compta@client.example' });
    const mute = await api.contact({ company: 'Sans Adresse SARL', email: null });
    const invoice = (contactId = client.id) =>
      api.issued({ type: 'facture', contact_id: contactId, due_date: addDays(todayParis(), 30), items: [line('Audit', '1', 10_000)] }) as Promise<{
        id: string;
        number: string;
      }>;
    const a = await invoice();
    const b = await invoice();
    const noEmail = await invoice(mute.id);
    const draft = (await api.draft({ type: 'facture', contact_id: client.id, items: [line('Audit', '1', 10_000)] })) as { id: string };
    const foreign = (await (await remindersContext(other)).contact({})).id;

    const state = await run('send', [a.id, b.id, draft.id, noEmail.id, foreign]);
    expect(state.done).toBe('2 documents envoyés, 3 ignorés (1 brouillon, 1 aucune adresse e-mail : le client n’en a pas, indiquez-en une, 1 introuvable).');
    expect(state.data!.map((o) => [o.id, o.ok])).toEqual([
      [a.id, true],
      [b.id, true],
      [draft.id, false],
      [noEmail.id, false],
      [foreign, false],
    ]);
    expect(state.data![2]).toMatchObject({ name: 'Brouillon de facture', reason: 'brouillon' });
    expect((await documentRow(org.db, a.id))!.status).toBe('sent');
    expect((await documentRow(org.db, b.id))!.status).toBe('sent');
    expect((await documentRow(org.db, noEmail.id))!.status).toBe('finalized');

    // Sent once: a second bulk send leaves them alone.
    expect((await run('send', [a.id])).done).toBe('0 document envoyé, 1 ignoré (déjà envoyé).');

    // Relancer: the sent unpaid invoices get a manual reminder now; the unsent and the draft are left out.
    const reminded = await run('remind', [a.id, noEmail.id, draft.id]);
    expect(reminded.done).toBe('1 document relancé, 2 ignorés (1 pas encore envoyé, 1 brouillon).');
    const manual = await org.db.select().from(reminders).where(eq(reminders.document_id, a.id));
    expect(manual.filter((r) => r.kind === 'manual')).toHaveLength(1);

    // Supprimer: drafts only; the finalized invoice stays.
    const deleted = await run('delete', [draft.id, a.id]);
    expect(deleted.done).toBe('1 document supprimé, 1 ignoré (pas un brouillon).');
    expect(await documentRow(org.db, draft.id)).toBeUndefined();
    expect((await org.db.select().from(documents).where(eq(documents.id, a.id))).length).toBe(1);
  }, 120_000);

  it('refuses an empty selection or an unknown action, in French, doing nothing', async () => {
    expect(await run('send', [])).toMatchObject({ errors: { ids: 'Choisissez au moins un élément.' } });
    expect(await run('archive', [org.org.id])).toMatchObject({ errors: { op: 'Choisissez une valeur de la liste.' } });
  });
});

describe('Exporter (the selection)', () => {
  it('exports only the documents checked, of the org only', async () => {
    const client = await api.contact({ company: 'Export SARL' });
    const one = (await api.draft({ type: 'devis', contact_id: client.id, items: [line('Audit', '1', 10_000)] })) as { id: string };
    const two = (await api.draft({ type: 'devis', contact_id: client.id, items: [line('Audit', '1', 20_000)] })) as { id: string };
    const theirs = (await (await remindersContext(other)).draft({ type: 'devis', contact_id: (await (await remindersContext(other)).contact({})).id, items: [] })) as {
      id: string;
    };
    const docs = await documentsToExport(org.db, org.org.id, {}, [one.id, theirs.id]);
    expect(docs.map((d) => d.id)).toEqual([one.id]);
    // In the list's sort when it has one (smallest first here), else newest first.
    const sorted = await documentsToExport(org.db, org.org.id, {}, [one.id, two.id], { key: 'total_ttc', dir: 'asc' });
    expect(sorted.map((d) => d.id)).toEqual([one.id, two.id]);
    expect((await documentsToExport(org.db, org.org.id, {}, [one.id, two.id])).map((d) => d.id)).toEqual([two.id, one.id]);
  });
});

describe('bulkSummary', () => {
  it('says what was done, then what was left out grouped by reason', () => {
    const ok = (id: string) => ({ id, name: id, ok: true });
    const no = (id: string, reason: string) => ({ id, name: id, ok: false, reason });
    expect(bulkSummary('send', [ok('1'), ok('2'), ok('3'), no('4', 'brouillon')])).toBe('3 documents envoyés, 1 ignoré (brouillon).');
    expect(bulkSummary('delete', [ok('1')])).toBe('1 document supprimé.');
    expect(bulkSummary('remind', [no('1', 'brouillon'), no('2', 'brouillon')])).toBe('0 document relancé, 2 ignorés (brouillon).');
  });
});
