import { asc, eq, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { contacts, documents, orgs } from '@/db/schema';
import { ContactCreate, createContact } from '@/lib/domain/contacts';
import { addDays, todayParis } from '@/lib/platform/dates';
import { acceptQuote, CreditNoteBody, createCreditNote, createDeposit, createDocument, DocumentCreate, finalizeDocument, rejectQuote } from '@/lib/domain/documents';
import { recordPayment } from '@/lib/domain/payments';
import { SendDocumentInput, sendDocument } from '@/lib/domain/sending';

export interface DemoDataSummary {
  contacts: number;
  documents: number;
}

type Item = { description: string; quantity: string; unit_price: number; vat_rate: string; unit?: string };
const item = (description: string, quantity: string, unit_price: number, unit = 'C62', vat_rate = '20'): Item => ({ description, quantity, unit_price, vat_rate, unit });

/** The org the demo data goes to: the first one (the demo org seeded on an empty database). */
export async function demoOrgId(db: Db): Promise<string | null> {
  const [first] = await db.select({ id: orgs.id }).from(orgs).orderBy(asc(orgs.created_at), asc(orgs.id)).limit(1);
  return first?.id ?? null;
}

/**
 * DEMO_DATA=true: fills an org that has neither a contact nor a document with a few clients, quotes and invoices
 * in every state, through the services the API uses (finalization, numbering, hash chain, payments, sending), so
 * the chain verifies like any other. Returns what it added, or null when the org already had data (a second
 * start adds nothing). The first contact is created under a lock in the same transaction as the emptiness
 * check, so two processes starting together fill it once; a crash midway leaves what was made (never a hole in
 * the numbering: every document is sealed by its own transaction).
 */
export async function fillDemoData(db: Db, orgId: string, now = new Date()): Promise<DemoDataSummary | null> {
  const first = await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(727276)`);
    const [anyContact] = await tx.select({ id: contacts.id }).from(contacts).where(eq(contacts.org_id, orgId)).limit(1);
    const [anyDocument] = await tx.select({ id: documents.id }).from(documents).where(eq(documents.org_id, orgId)).limit(1);
    if (anyContact || anyDocument) return null;
    return createContact(
      tx,
      orgId,
      ContactCreate.parse({
        type: 'professionnel',
        company: 'Boulangerie Dupain SARL',
        first_name: 'Louis',
        last_name: 'Dupain',
        email: 'compta@boulangerie-dupain.test',
        phone: '+33 4 78 00 00 01',
        address: '8 rue de la République',
        postal_code: '69002',
        city: 'Lyon',
        siret: '42135789800012',
        vat_intra: 'FR32421357898',
      }),
    );
  });
  if (!first) return null;

  const contact = (body: Record<string, unknown>) => createContact(db, orgId, ContactCreate.parse(body));
  const studio = await contact({
    type: 'professionnel',
    company: 'Studio Nord SAS',
    email: 'factures@studio-nord.test',
    address: '3 quai de la Fosse',
    postal_code: '44000',
    city: 'Nantes',
    siret: '38456129600011',
  });
  const bistrot = await contact({
    type: 'professionnel',
    company: 'Le Petit Bistrot EURL',
    email: 'gerance@petit-bistrot.test',
    address: '21 cours Julien',
    postal_code: '13006',
    city: 'Marseille',
    siret: '51209347700010',
  });
  const consumer = await contact({
    type: 'particulier',
    first_name: 'Claire',
    last_name: 'Morel',
    email: 'claire.morel@exemple.test',
    address: '5 place du Marché',
    postal_code: '33000',
    city: 'Bordeaux',
  });

  const today = todayParis(now);
  const day = (offset: number) => addDays(today, offset);
  // A past day at noon in Paris: finalizing then keeps the issue date and the chain in calendar order.
  const at = (offset: number) => new Date(`${day(offset)}T10:00:00Z`);
  let made = 0;
  const draft = async (body: Record<string, unknown>) => {
    made++;
    return createDocument(db, orgId, DocumentCreate.parse({ operation_nature: 'services', payment_method: 'bank_transfer', ...body }));
  };
  const issued = async (offset: number, body: Record<string, unknown>) =>
    finalizeDocument(db, orgId, (await draft({ issue_date: day(offset), ...body })).id, offset < 0 ? at(offset) : undefined);
  const invoice = (offset: number, contactId: string, items: Item[], title: string) =>
    issued(offset, { type: 'facture', contact_id: contactId, title, due_date: day(offset + 30), items });
  const quote = (offset: number, contactId: string, items: Item[], title: string, validFor = 30) =>
    issued(offset, { type: 'devis', contact_id: contactId, title, validity_date: day(offset + validFor), items });
  const pay = (id: string, amount: number, offset: number, reference: string) =>
    recordPayment(db, orgId, id, { amount, paid_at: day(offset), method: 'bank_transfer', reference });
  const send = (id: string) => sendDocument(db, orgId, id, SendDocumentInput.parse({}));

  // In calendar order: the chain and each numbering series follow the dates.
  const paid = await invoice(-75, first.id, [item('Identité visuelle', '1', 180000), item('Déclinaison des supports', '4', 25000)], 'Identité visuelle');
  await pay(paid.id, paid.total_ttc, -60, 'VIR DUPAIN');
  await quote(-60, bistrot.id, [item('Refonte de la carte', '1', 65000)], 'Refonte de la carte'); // validity passed: the daily job expires it
  await invoice(-50, studio.id, [item('Direction artistique', '3', 60000, 'DAY')], 'Direction artistique'); // unpaid past its due date: overdue
  const accepted = await quote(-25, first.id, [item('Site vitrine', '1', 350000), item('Photographies', '1', 90000)], 'Site vitrine', 45);
  const rejected = await quote(-20, consumer.id, [item('Faire-part de mariage', '120', 450)], 'Faire-part', 45);
  const partly = await invoice(-10, bistrot.id, [item('Menus imprimés', '200', 350), item('Enseigne', '1', 120000)], 'Menus et enseigne');
  await pay(partly.id, Math.round(partly.total_ttc * 0.4), -3, 'VIR BISTROT ACOMPTE');
  const credited = await invoice(-5, studio.id, [item('Retouches photo', '10', 4500), item('Déplacement', '1', 15000)], 'Retouches photo');
  const sentQuote = await quote(-2, studio.id, [item('Catalogue 2027', '1', 240000)], 'Catalogue 2027');

  await acceptQuote(db, orgId, accepted.id);
  await rejectQuote(db, orgId, rejected.id);
  const deposit = await createDeposit(db, orgId, accepted.id, { percentage: '30' });
  made++;
  await finalizeDocument(db, orgId, deposit.id);
  const creditNote = await createCreditNote(
    db,
    orgId,
    credited.id,
    CreditNoteBody.parse({ credit_reason_code: 'commercial_gesture', credit_reason_text: 'Déplacement offert', items: [item('Déplacement offert', '1', 15000)] }),
  );
  made++;
  await finalizeDocument(db, orgId, creditNote.id);
  const sentInvoice = await invoice(0, consumer.id, [item('Portrait de famille', '1', 35000)], 'Portrait de famille');
  await invoice(0, bistrot.id, [item('Cartes de fidélité', '500', 40)], 'Cartes de fidélité'); // finalized, not sent yet
  await draft({ type: 'devis', contact_id: consumer.id, title: 'Album photo', items: [item('Album photo', '1', 42000)] });
  await draft({ type: 'facture', contact_id: first.id, title: 'Maintenance du site', items: [item('Maintenance mensuelle', '1', 15000)] });
  await send(sentQuote.id);
  await send(sentInvoice.id);
  return { contacts: 4, documents: made };
}

