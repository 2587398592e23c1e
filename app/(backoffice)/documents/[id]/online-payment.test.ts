import { eq } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { paymentLinks } from '@/db/schema';
import { addDays, todayParis } from '@/lib/platform/dates';
import { documentRow, line } from '@/lib/domain/documents/testing';
import { createActionWrappers, initialFormState, type StaffSession } from '@/lib/platform/next';
import { addMembership, createUser } from '@/lib/platform/orgs';
import { connectAccount, paymentLinkOf } from '@/lib/domain/payments';
import { connectedStripe, withoutStripe } from '@/lib/domain/payments/testing';
import { documentEmails, remindersContext } from '@/lib/domain/reminders/testing';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { previewHandler, sendFormFields, sendHandler } from '@/components/sending/send-handlers';
import { paymentLink } from './online-payment-handlers';

// The document page's online-payment actions are these handlers in the action wrapper: run here under a given
// session, against the fake Stripe through the real SDK, on the real database.
let session: StaffSession = null;
const { formAction, staffAction } = createActionWrappers(async () => session);
const linkAction = formAction(paymentLink, { notFound: 'Document introuvable.' });
// The send dialog with « Joindre le lien de paiement » checked: the send-for-payment path.
const sendAction = formAction(sendHandler, { input: sendFormFields, lists: ['cc'], notFound: 'Document introuvable.' });
const previewAction = staffAction(previewHandler, { notFound: 'Document introuvable.', lists: ['cc'] });
const createLink = (id: string) => linkAction(id, initialFormState, new FormData());
const send = (id: string, email = '') => {
  const form = new FormData();
  form.set('email', email);
  form.set('pay_link', 'on');
  return sendAction(id, initialFormState, form);
};

async function staffOf(o: TestOrg) {
  const userId = (await createUser(o.db, { email: `member-${o.org.id}@example.fr`, password: 'long enough password' })).id;
  await addMembership(o.db, o.org.id, userId, 'member');
  return { userId, orgId: o.org.id };
}

const ctx = connectedStripe({ storage: true, connect: false });
let api: Awaited<ReturnType<typeof remindersContext>>;
let client: { id: string };
let theirsId: string;
beforeAll(async () => {
  api = await remindersContext(ctx.org);
  client = await api.contact({ email: 'compta@client.example', first_name: 'Jeanne', last_name: 'Martin' });
  session = await staffOf(ctx.org);
});
beforeEach(() => ctx.fake.reset());

const invoice = (contactId = client.id) =>
  api.issued({ type: 'facture', contact_id: contactId, due_date: addDays(todayParis(), 30), items: [line('Audit', '2', 45000)] });

describe('the document page’s online payment', () => {
  it('without an account, both are refused in French (Settings → Paiements lifts it)', async () => {
    const inv = await invoice();
    expect(await createLink(inv.id)).toMatchObject({ error: 'Connectez d’abord un compte de paiement en ligne.' });
    expect(await send(inv.id)).toMatchObject({ error: 'Connectez d’abord un compte de paiement en ligne.' });
    expect(await paymentLinkOf(ctx.org.db, ctx.org.org.id, inv.id)).toBeNull();
  });

  it('without STRIPE_SECRET_KEY, says online payment is off', async () => {
    const inv = await invoice();
    await withoutStripe(async () => {
      expect(await createLink(inv.id)).toMatchObject({ errors: { _form: 'Le paiement en ligne est désactivé.' } });
      expect(await send(inv.id)).toMatchObject({ errors: { _form: 'Le paiement en ligne est désactivé.' } });
    });
  });

  it('creates the link once and shows the same one again', async () => {
    await connectAccount(ctx.org.db, ctx.org.org.id, ctx.fake.addAccount({ charges_enabled: false }).id);
    const inv = await invoice();
    const first = await createLink(inv.id);
    expect(first).toMatchObject({ done: 'Lien de paiement créé.', data: { url: expect.stringMatching(/^http:\/\/localhost:3000\/pay\/[\w-]{43}$/) } });
    expect(await paymentLinkOf(ctx.org.db, ctx.org.org.id, inv.id)).toEqual({ already_exists: true, url: first.data!.url, expires_at: null });
    const again = await createLink(inv.id);
    expect(again).toMatchObject({ done: 'Ce document a déjà son lien de paiement.', data: { url: first.data!.url } });
    expect(await ctx.org.db.select().from(paymentLinks).where(eq(paymentLinks.document_id, inv.id))).toHaveLength(1);
  });

  it('sending for payment is refused while the account cannot take payments', async () => {
    const inv = await invoice();
    expect(await send(inv.id)).toMatchObject({ error: 'Le compte de paiement en ligne n’est pas encore prêt.' });
    expect(await documentEmails(ctx.org, inv.id)).toEqual([]);
  });

  it('refuses a quote, a draft and a paid invoice, and another org’s document is not found', async () => {
    const quote = await api.issued({ type: 'devis', contact_id: client.id, validity_date: addDays(todayParis(), 30), items: [line('A', '1', 100)] });
    const draft = await api.draft({ type: 'facture', contact_id: client.id, items: [line('A', '1', 100)] });
    const paid = await invoice();
    await api.pay(paid.id, { amount: paid.total_ttc });
    for (const id of [quote.id, draft.id, paid.id]) {
      expect(await createLink(id)).toMatchObject({ error: 'Aucun paiement ne peut être enregistré sur ce document.' });
    }
    const other = await createTestOrg();
    const theirs = await (await remindersContext(other)).issued({
      type: 'facture',
      contact_id: (await (await remindersContext(other)).contact({ email: 'x@client.example', company: 'X' })).id,
      items: [line('A', '1', 100)],
    });
    expect(await createLink(theirs.id)).toMatchObject({ error: 'Document introuvable.' });
    expect(await createLink('not-an-id')).toMatchObject({ error: 'Document introuvable.' });
    // Sending checks the account's readiness first (the spec's order): another org's id is a 404 once it is ready.
    expect(await send(theirs.id)).toMatchObject({ error: 'Le compte de paiement en ligne n’est pas encore prêt.' });
    theirsId = theirs.id;
  });

  it('sends for payment once the account is ready: the e-mail carries the same link; a contact without address needs one', async () => {
    const account = ctx.fake.addAccount();
    await connectAccount(ctx.org.db, ctx.org.org.id, account.id);
    const inv = await invoice();
    const { data } = await createLink(inv.id);
    expect(await send(inv.id)).toEqual({ attempt: 1, done: 'Document envoyé avec le lien de paiement en ligne. 5 relances programmées.' });
    const [email] = await documentEmails(ctx.org, inv.id);
    expect(email).toMatchObject({ to: ['compta@client.example'] });
    expect((email!.template_data as { pay_url: string }).pay_url).toBe(data!.url);
    expect((await documentRow(ctx.org.db, inv.id))!.status).toBe('sent');
    expect(await send(theirsId)).toMatchObject({ error: 'Document introuvable.' });

    const silent = await api.contact({ company: 'Sans Mail SARL' });
    const quiet = await invoice(silent.id);
    expect(await send(quiet.id)).toMatchObject({ errors: { email: expect.any(String) } });
    expect(await send(quiet.id, 'pas-une-adresse')).toMatchObject({ errors: { email: expect.any(String) } });
    expect(await send(quiet.id, 'autre@client.example')).toMatchObject({ done: expect.stringContaining('avec le lien de paiement') });
    expect((await documentEmails(ctx.org, quiet.id))[0]).toMatchObject({ to: ['autre@client.example'] });
  });

  it('one dialog: the preview shows the pay link when asked, the plain send leaves it out; nothing minted by a preview', async () => {
    const inv = await invoice();
    const fields = { email: '', cc: 'associe@client.example', subject: 'Votre facture', message: 'Merci pour votre confiance.' };
    const withLink = await previewAction(inv.id, { ...fields, pay_link: 'on' });
    expect(withLink).toMatchObject({ to: 'compta@client.example', cc: ['associe@client.example'], subject: 'Votre facture', pay_link: true });
    expect((withLink as { text: string }).text).toContain('Merci pour votre confiance.');
    expect((withLink as { text: string }).text).toMatch(/\/pay\/lien-cree-a-l-envoi/);
    expect(await paymentLinkOf(ctx.org.db, ctx.org.org.id, inv.id)).toBeNull();
    const plain = await previewAction(inv.id, fields);
    expect(plain).toMatchObject({ pay_link: false });
    expect((plain as { text: string }).text).not.toContain('/pay/');

    // Sent with the link: the copies, subject and message of the dialog go with it; the preview then shows the real link.
    const form = new FormData();
    for (const [k, v] of Object.entries({ ...fields, pay_link: 'on' })) form.set(k, v);
    expect(await sendAction(inv.id, initialFormState, form)).toMatchObject({ done: expect.stringContaining('avec le lien de paiement') });
    const [email] = await documentEmails(ctx.org, inv.id);
    expect(email).toMatchObject({ to: ['compta@client.example'], cc: ['associe@client.example'], subject: 'Votre facture' });
    const link = (await paymentLinkOf(ctx.org.db, ctx.org.org.id, inv.id))!.url!;
    expect((email!.template_data as { pay_url: string; message: string })).toMatchObject({ pay_url: link, message: 'Merci pour votre confiance.' });
    expect((await previewAction(inv.id, { ...fields, pay_link: 'on' }) as { text: string }).text).toContain(link);

    // Unchecked: the plain send, no pay link in the e-mail.
    const again = new FormData();
    again.set('email', '');
    expect(await sendAction(inv.id, initialFormState, again)).toMatchObject({ done: expect.stringMatching(/^Document envoyé\./) });
    const emails = await documentEmails(ctx.org, inv.id);
    expect(emails).toHaveLength(2);
    expect(emails.map((e) => (e.template_data as { pay_url?: string | null }).pay_url ?? null)).toContain(null);
  });
});
