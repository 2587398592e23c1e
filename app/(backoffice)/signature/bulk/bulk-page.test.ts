import { eq } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { signatureDocuments, signatureEnvelopes } from '@/db/schema';
import { createActionWrappers, type StaffSession } from '@/lib/platform/next';
import { addMembership, createUser } from '@/lib/platform/orgs';
import { bulkBatchView } from '@/lib/domain/signature';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { bulkFromForm } from './handlers';

// The page's handler in the action wrapper (actions.ts), run under a given session.
let session: StaffSession = null;
const { formAction } = createActionWrappers(async () => session);
const submit = formAction(async (staff, form: FormData) => ({ data: await bulkFromForm(staff, form, { ip: '203.0.113.8', user_agent: 'vitest', user_id: staff.userId }) }));

let org: TestOrg;
beforeAll(async () => {
  org = await createTestOrg();
  const user = await createUser(org.db, { email: `bulk-${org.org.id}@example.fr`, password: 'long enough password' });
  await addMembership(org.db, org.org.id, user.id, 'member');
  session = { userId: user.id, orgId: org.org.id };
});

async function pdf(): Promise<File> {
  const doc = await PDFDocument.create();
  doc.addPage([595, 842]);
  return new File([new Uint8Array(await doc.save())], 'reglement.pdf', { type: 'application/pdf' });
}

function formOf(fields: Record<string, string | File>) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  return form;
}

const CSV = 'email;nom\nlou@exemple.fr;Lou Groupé\npas-un-email;Personne\nmax@exemple.fr;Max Groupé';

describe('the bulk send page against lib/domain/signature', () => {
  it('previews the CSV with each row’s problem, storing the PDF once; then sends and the batch shows each recipient', async () => {
    const preview = await submit({ attempt: 0 }, formOf({ csv: CSV, file: await pdf() }));
    expect(preview.errors).toBeUndefined();
    const shown = (preview.data as { preview: { rows: Array<{ email: string; errors: string[] }>; document_id: string } }).preview;
    expect(shown.rows.map((r) => [r.email, r.errors.length])).toEqual([
      ['lou@exemple.fr', 0],
      ['pas-un-email', 1],
      ['max@exemple.fr', 0],
    ]);
    const docs = await org.db.select().from(signatureDocuments).where(eq(signatureDocuments.org_id, org.org.id));
    expect(docs.map((d) => d.id)).toEqual([shown.document_id]);

    const sent = await submit(preview, formOf({ csv: CSV, document_id: shown.document_id, subject: 'Règlement', intent: 'send' }));
    const { batch_id } = sent.data as { batch_id: string };
    const batch = await bulkBatchView(org.db, org.org.id, batch_id);
    expect(batch).toMatchObject({ recipient_count: 3, sent_count: 2, failed_count: 1 });
    expect(batch.results.map((r) => [r.email, r.status, r.error?.split(':')[0] ?? null])).toEqual([
      ['lou@exemple.fr', 'draft', null],
      ['pas-un-email', null, 'recipients.1.email'],
      ['max@exemple.fr', 'draft', null],
    ]);
    const [envelope] = await org.db.select().from(signatureEnvelopes).where(eq(signatureEnvelopes.id, batch.results[0]!.envelope_id!));
    expect(envelope).toMatchObject({ subject: 'Règlement', created_by_user_id: session!.userId, bulk_batch_id: batch_id });
    // Another org's session sees no such batch.
    await expect(bulkBatchView(org.db, (await createTestOrg()).org.id, batch_id)).rejects.toMatchObject({ status: 404 });
  });

  it('refuses, in French beside the field, a CSV without an e-mail column, over 100 rows, or a send without the PDF', async () => {
    const noEmail = await submit({ attempt: 0 }, formOf({ csv: 'nom\nLou' }));
    expect(noEmail.errors).toEqual({ csv: 'Aucune colonne « e-mail » dans la première ligne du fichier.' });
    const many = ['email,nom', ...Array.from({ length: 101 }, (_, i) => `p${i}@exemple.fr,P ${i}`)].join('\n');
    expect((await submit({ attempt: 0 }, formOf({ csv: many }))).errors?.csv).toMatch(/^101 destinataires : 100 au plus/);
    expect((await submit({ attempt: 0 }, formOf({ csv: CSV, intent: 'send' }))).errors).toEqual({ file: 'Choisissez le PDF à faire signer.' });
  });

  it('refuses a control character in the CSV, a file or pasted, before anything is sent (a NUL e-mail was a 500)', async () => {
    const envelopes = () => org.db.select({ id: signatureEnvelopes.id }).from(signatureEnvelopes).where(eq(signatureEnvelopes.org_id, org.org.id));
    const before = (await envelopes()).length;
    const file = new File(['email;nom\nlou@exemple.fr;Lou\nnul\u0000@exemple.fr;Nul'], 'destinataires.csv', { type: 'text/csv' });
    const fromFile = await submit({ attempt: 0 }, formOf({ csv_file: file, file: await pdf(), intent: 'send' }));
    expect(fromFile.errors).toEqual({ csv: 'Le fichier contient un caractère de contrôle (ligne 3) : enregistrez-le à nouveau en CSV.' });
    const pasted = await submit({ attempt: 0 }, formOf({ csv: 'email;nom\nesc@exemple.fr;E\u001bsc', file: await pdf(), intent: 'send' }));
    expect(Object.keys(pasted.errors ?? {})).toEqual(['csv']);
    expect((await envelopes()).length).toBe(before);
  });
});
