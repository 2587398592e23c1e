import { and, asc, eq, isNotNull } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { contacts, documents, payments } from '@/db/schema';
import { ContactCreate, createContact } from '@/lib/domain/contacts';
import { todayParis } from '@/lib/platform/dates';
import { verifyChainNow } from '@/lib/domain/documents';
import { createTestOrg } from '@/lib/testing/fixtures';
import { fillDemoData } from './demo-data';
import { onboardingSteps } from './onboarding';

it('fills an empty org once with documents in every state, through the services: the chain verifies, a second run adds nothing', async () => {
  const org = await createTestOrg();
  const summary = await fillDemoData(org.db, org.org.id);
  expect(summary).toEqual({ contacts: 4, documents: expect.any(Number) });

  const docs = await org.db.select().from(documents).where(eq(documents.org_id, org.org.id)).orderBy(asc(documents.chain_index));
  const people = await org.db.select().from(contacts).where(eq(contacts.org_id, org.org.id));
  expect(docs).toHaveLength(summary!.documents);
  expect(people.map((c) => c.type).sort()).toEqual(['particulier', 'professionnel', 'professionnel', 'professionnel']);

  const states = (type: string) => new Set(docs.filter((d) => d.type === type).map((d) => d.status));
  expect(states('devis')).toEqual(new Set(['draft', 'finalized', 'sent', 'accepted', 'rejected']));
  expect(states('facture')).toEqual(new Set(['draft', 'finalized', 'sent', 'paid']));
  expect(states('acompte')).toEqual(new Set(['finalized']));
  expect(states('avoir')).toEqual(new Set(['finalized']));
  const today = todayParis();
  // A quote past its validity (the daily job expires it), an invoice past its due date unpaid, one partly paid.
  expect(docs.some((d) => d.type === 'devis' && d.status === 'finalized' && d.validity_date! < today)).toBe(true);
  expect(docs.some((d) => d.type === 'facture' && d.status === 'finalized' && d.due_date! < today)).toBe(true);
  const paidRows = await org.db.select().from(payments).where(eq(payments.org_id, org.org.id));
  const partly = docs.find((d) => d.type === 'facture' && d.status === 'sent' && paidRows.some((p) => p.document_id === d.id));
  expect(partly).toBeDefined();
  expect(docs.filter((d) => d.sent_at).map((d) => d.type).sort()).toEqual(['devis', 'facture']);

  // Numbered without gaps, in chain order, and the chain verifies.
  const sealed = docs.filter((d) => d.chain_index !== null);
  expect(sealed.map((d) => d.chain_index)).toEqual(sealed.map((_, i) => i + 1));
  expect(new Set(sealed.map((d) => d.number)).size).toBe(sealed.length);
  const verification = await verifyChainNow(org.db, org.org.id);
  expect(verification).toMatchObject({ ok: true, verified: sealed.length });

  // The checklist after the demo: a client and a quote done; bank, payments and e-invoicing still open.
  const done = (await onboardingSteps(org.db, org.org.id)).filter((s) => s.done).map((s) => s.key);
  expect(done).toEqual(expect.arrayContaining(['first_client', 'first_quote']));
  expect(done).not.toEqual(expect.arrayContaining(['bank_details']));

  expect(await fillDemoData(org.db, org.org.id)).toBeNull();
  const after = await org.db.select({ id: documents.id }).from(documents).where(eq(documents.org_id, org.org.id));
  const peopleAfter = await org.db.select({ id: contacts.id }).from(contacts).where(eq(contacts.org_id, org.org.id));
  expect([after.length, peopleAfter.length]).toEqual([docs.length, people.length]);
  const finalizedAfter = await org.db
    .select({ id: documents.id })
    .from(documents)
    .where(and(eq(documents.org_id, org.org.id), isNotNull(documents.finalized_at)));
  expect(finalizedAfter).toHaveLength(sealed.length);
}, 120_000);

it('leaves an org that already has a client alone, and fills once when two starts race', async () => {
  const used = await createTestOrg();
  await createContact(used.db, used.org.id, ContactCreate.parse({ type: 'particulier', first_name: 'Jeanne', last_name: 'Réelle' }));
  expect(await fillDemoData(used.db, used.org.id)).toBeNull();
  expect(await used.db.select({ id: documents.id }).from(documents).where(eq(documents.org_id, used.org.id))).toEqual([]);

  const race = await createTestOrg();
  const results = await Promise.all([fillDemoData(race.db, race.org.id), fillDemoData(race.db, race.org.id)]);
  expect(results.filter((r) => r !== null)).toHaveLength(1);
  const people = await race.db.select({ id: contacts.id }).from(contacts).where(eq(contacts.org_id, race.org.id));
  expect(people).toHaveLength(4);
}, 180_000);
