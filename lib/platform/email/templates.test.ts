import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/platform/errors';
import { type Language, type ReminderTone, reminderTone, renderEmail } from './templates';

/** Intl writes narrow and regular no-break spaces in French amounts: compare with plain spaces. */
const plain = (s: string) => s.replace(/[\u202f\u00a0]/g, ' ');

const reminder = (tone: ReminderTone, lang: Language, extra: Record<string, unknown> = {}) =>
  renderEmail(
    'payment_reminder',
    {
      seller_name: 'Atelier Lumière',
      recipient_name: 'Jeanne',
      document_type: 'facture',
      document_number: 'F-2026-00012',
      amount_due_cents: 123456,
      due_date: '2026-03-12',
      tone,
      business_client: true,
      ...extra,
    },
    lang,
  );

describe('document sent', () => {
  const base = { seller_name: 'Atelier Lumière', document_number: 'X-2026-00001', amount_cents: 123456 };

  it.each([
    ['devis', 'Devis X-2026-00001 – Atelier Lumière', 'notre devis X-2026-00001 d’un montant de 1 234,56 € TTC', 'valable jusqu’au 30 avril 2026'],
    ['facture', 'Facture X-2026-00001 – Atelier Lumière', 'notre facture X-2026-00001 d’un montant de 1 234,56 € TTC', 'payable au plus tard le 12 mars 2026'],
    ['acompte', 'Facture d’acompte X-2026-00001 – Atelier Lumière', 'notre facture d’acompte X-2026-00001', 'payable au plus tard le 12 mars 2026'],
    ['avoir', 'Avoir X-2026-00001 – Atelier Lumière', 'notre avoir X-2026-00001 d’un montant de 1 234,56 € TTC', 'Il se rapporte à la facture F-2026-00003.'],
  ] as const)('words a %s in French', async (type, subject, intro, terms) => {
    const r = await renderEmail(
      'document_sent',
      { ...base, document_type: type, due_date: '2026-03-12', validity_date: '2026-04-30', credited_document_number: type === 'avoir' ? 'F-2026-00003' : null },
      'fr',
    );
    expect(r.subject).toBe(subject);
    for (const body of [plain(r.html), plain(r.text)]) {
      expect(body).toContain(intro);
      expect(body).toContain(terms);
      expect(body).toContain('Bonjour,');
    }
    expect(r.html).toMatch(/^<!DOCTYPE html/);
    expect(r.html).toContain('lang="fr"');
  });

  it.each([
    ['devis', 'Quote X-2026-00001 from Atelier Lumière', 'our quote X-2026-00001 for €1,234.56 (incl. VAT)', 'valid until 30 April 2026'],
    ['facture', 'Invoice X-2026-00001 from Atelier Lumière', 'our invoice X-2026-00001 for €1,234.56', 'Payment is due by 12 March 2026.'],
    ['acompte', 'Deposit invoice X-2026-00001 from Atelier Lumière', 'our deposit invoice X-2026-00001', 'Payment is due by 12 March 2026.'],
    ['avoir', 'Credit note X-2026-00001 from Atelier Lumière', 'our credit note X-2026-00001', 'deducted from your next payments'],
  ] as const)('words a %s in English', async (type, subject, intro, terms) => {
    const r = await renderEmail('document_sent', { ...base, document_type: type, due_date: '2026-03-12', validity_date: '2026-04-30' }, 'en');
    expect(r.subject).toBe(subject);
    for (const body of [r.html, r.text]) {
      expect(body).toContain(intro);
      expect(body).toContain(terms);
    }
    expect(r.html).toContain('lang="en"');
  });

  it('greets by name, quotes the message with its line breaks, and links the payment page in HTML and text', async () => {
    const r = await renderEmail(
      'document_sent',
      { ...base, document_type: 'facture', recipient_name: 'Jeanne', message: 'Merci pour votre confiance.\nÀ bientôt !\n\n<b>Pas de HTML</b>', pay_url: 'https://pay.example/p/abc' },
      'fr',
    );
    expect(r.text).toContain('Bonjour Jeanne,');
    expect(r.text).toContain('Merci pour votre confiance.\nÀ bientôt !');
    expect(r.html).toContain('Merci pour votre confiance.<br/>À bientôt !');
    expect(r.html).toContain('&lt;b&gt;Pas de HTML&lt;/b&gt;');
    expect(r.html).toContain('href="https://pay.example/p/abc"');
    expect(r.text).toMatch(/Payer en ligne \[?https:\/\/pay\.example\/p\/abc/);
  });

  it('lets a message that greets the reader itself take the greeting’s place, in every template that has one', async () => {
    const message = 'Bonjour Madame Martin,\n\nComme convenu, voici la facture.';
    const sent = await renderEmail('document_sent', { ...base, document_type: 'facture', recipient_name: 'Jeanne', message }, 'fr');
    expect(sent.text).not.toContain('Bonjour Jeanne,');
    expect(sent.text.match(/Bonjour/g)).toHaveLength(1);
    // It opens the e-mail, before the document's facts.
    expect(sent.text.indexOf('Comme convenu')).toBeLessThan(sent.text.indexOf('Elle est payable à réception.'));
    // A message that does not greet stays below, after our greeting.
    const plain = await renderEmail('document_sent', { ...base, document_type: 'facture', recipient_name: 'Jeanne', message: 'Merci !' }, 'fr');
    expect(plain.text.indexOf('Bonjour Jeanne,')).toBeLessThan(plain.text.indexOf('Merci !'));
    for (const lang of ['fr', 'en'] as const) {
      const greeting = lang === 'fr' ? 'Bonjour' : 'Hello';
      const en = await renderEmail('document_sent', { ...base, document_type: 'devis', recipient_name: 'Jo', message: `${greeting} team,\nsee attached.` }, lang);
      expect(en.text.match(new RegExp(greeting, 'g'))).toHaveLength(1);
    }
  });

  it('says "payable on receipt" without a due date and refuses a pay link on a credit note', async () => {
    const r = await renderEmail('document_sent', { ...base, document_type: 'facture' }, 'fr');
    expect(r.text).toContain('Elle est payable à réception.');
    const err = await renderEmail('document_sent', { ...base, document_type: 'avoir', pay_url: 'https://pay.example/x' }, 'fr').catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 422, field: 'data.pay_url' });
  });

  it('names the invalid field of the data', async () => {
    const err = await renderEmail('document_sent', { ...base, document_type: 'facture', due_date: '12/03/2026' }, 'fr').catch((e) => e);
    expect(err).toMatchObject({ status: 422, code: 'validation_error', field: 'data.due_date' });
  });
});

describe('payment reminder', () => {
  it('escalates in French: courteous before the due date, firm after it, formal at the last notice', async () => {
    const gentle = await reminder('gentle', 'fr');
    const firm = await reminder('firm', 'fr');
    const final = await reminder('final', 'fr');

    expect(gentle.subject).toBe('Petit rappel : facture F-2026-00012 à échéance le 12 mars 2026 – Atelier Lumière');
    expect(plain(gentle.text)).toContain('arrive à échéance le 12 mars 2026');
    expect(gentle.text).toContain('Si vous avez déjà procédé au paiement, merci de ne pas tenir compte de ce message.');
    expect(gentle.text).toContain('Bien cordialement,');

    expect(firm.subject).toBe('Relance : facture F-2026-00012 impayée – Atelier Lumière');
    expect(plain(firm.text)).toContain('échue le 12 mars 2026, reste impayée à ce jour pour un montant de 1 234,56 €');
    expect(firm.text).toContain('dans les meilleurs délais');

    expect(final.subject).toBe('Dernier rappel avant recouvrement : facture F-2026-00012 – Atelier Lumière');
    expect(final.text).toContain('Malgré nos précédentes relances');
    expect(final.text).toContain('sous huit jours');
    expect(final.text).toContain('article L441-10 du Code de commerce');
    expect(final.text).toContain('pénalités de retard au taux indiqué sur la facture');
    expect(plain(final.text)).toContain('indemnité forfaitaire pour frais de recouvrement de 40 €');
    expect(final.text).toContain('procédure de recouvrement');
    expect(final.text).toContain('Veuillez agréer nos salutations distinguées,');
    expect(final.text).not.toContain('merci de ne pas tenir compte');

    // Only the last notice threatens; only the later steps say the invoice is late.
    for (const early of [gentle, firm]) {
      expect(early.text).not.toContain('40 €');
      expect(early.text).not.toContain('recouvrement');
    }
    expect(gentle.text).not.toContain('impayée');
  });

  it('escalates in English the same way', async () => {
    const gentle = await reminder('gentle', 'en');
    const firm = await reminder('firm', 'en');
    const final = await reminder('final', 'en');
    expect(gentle.subject).toBe('Friendly reminder: invoice F-2026-00012 is due on 12 March 2026 – Atelier Lumière');
    expect(gentle.text).toContain('If you have already paid, please disregard this message.');
    expect(firm.subject).toBe('Overdue: invoice F-2026-00012 is unpaid – Atelier Lumière');
    expect(firm.text).toContain('remains unpaid with €1,234.56 outstanding');
    expect(final.subject).toBe('Final notice before debt recovery: invoice F-2026-00012 – Atelier Lumière');
    expect(final.text).toContain('within eight days');
    expect(final.text).toContain('Article L441-10 of the French Commercial Code');
    expect(final.text).toContain('fixed indemnity of €40 for recovery costs');
    expect(final.text).toContain('Yours faithfully,');
    expect(gentle.text).not.toContain('€40');
  });

  it('states the penalty terms of the invoice, and spares consumers the business-only penalties and indemnity', async () => {
    const withTerms = await reminder('final', 'fr', { late_penalty_terms: 'de trois fois le taux d’intérêt légal' });
    expect(withTerms.text).toContain('pénalités de retard de trois fois le taux d’intérêt légal');
    const consumer = await reminder('final', 'fr', { business_client: false });
    expect(consumer.text).toContain('procédure de recouvrement');
    expect(consumer.text).not.toContain('L441-10');
    expect(consumer.text).not.toContain('40 €');
  });

  it('names a deposit invoice as such', async () => {
    const r = await reminder('firm', 'fr', { document_type: 'acompte' });
    expect(r.subject).toBe('Relance : facture d’acompte F-2026-00012 impayée – Atelier Lumière');
  });

  it('maps ladder steps to tones', () => {
    expect(reminderTone(-3, false)).toBe('gentle');
    expect(reminderTone(0, true)).toBe('gentle');
    expect(reminderTone(1, false)).toBe('firm');
    expect(reminderTone(15, false)).toBe('firm');
    expect(reminderTone(30, true)).toBe('final');
  });
});

describe('quote expiry reminder', () => {
  it.each([
    ['fr', 'Votre devis D-2026-00004 expire le 30 avril 2026 – Atelier Lumière', 'Notre devis D-2026-00004, d’un montant de 980,00 € TTC, est valable jusqu’au 30 avril 2026.'],
    ['en', 'Your quote D-2026-00004 expires on 30 April 2026 – Atelier Lumière', 'Our quote D-2026-00004 for €980.00 (incl. VAT) is valid until 30 April 2026.'],
  ] as const)('renders in %s', async (lang, subject, body) => {
    const r = await renderEmail('quote_expiry_reminder', { seller_name: 'Atelier Lumière', document_number: 'D-2026-00004', amount_cents: 98000, validity_date: '2026-04-30' }, lang);
    expect(r.subject).toBe(subject);
    expect(plain(r.html)).toContain(body);
    expect(plain(r.text)).toContain(body);
  });
});

describe('account locked', () => {
  const data = { account_email: 'jeanne@example.fr', failures: 10, locked_until: '2026-03-12T14:30:00.000Z', address: '203.0.113.9', login_url: 'https://app.example.fr/login' };

  it('tells the owner until when, from where, and what to do, sent by Paraphe itself', async () => {
    const fr = await renderEmail('account_locked', data, 'fr');
    expect(fr.subject).toBe('Connexion à votre compte Paraphe temporairement verrouillée');
    for (const body of [plain(fr.html), plain(fr.text)]) {
      expect(body).toContain('Après 10 tentatives de connexion avec un mot de passe erroné');
      expect(body).toContain('jeanne@example.fr jusqu’au 12/03/2026 15:30');
      expect(body).toContain('203.0.113.9');
      expect(body).toContain('envoyé automatiquement par Paraphe');
      expect(body).not.toContain('via Paraphe');
    }
    expect(fr.html).toContain('href="https://app.example.fr/login"');

    const en = await renderEmail('account_locked', { ...data, address: null }, 'en');
    expect(en.subject).toBe('Sign-in to your Paraphe account is temporarily locked');
    expect(en.text).toContain('After 10 sign-in attempts with a wrong password');
    expect(en.text).not.toContain('Address of the last attempt');
  });

  it('refuses data that is not an account lock', async () => {
    await expect(renderEmail('account_locked', { ...data, account_email: 'not an e-mail' }, 'fr')).rejects.toMatchObject({ status: 422, field: 'data.account_email' });
  });
});

describe('payment received (to the org)', () => {
  const data = { seller_name: 'Paraphe Démo', document_type: 'facture', document_number: 'F-2026-00012', amount_cents: 50000, method: 'card', paid_at: '2026-03-12', remaining_cents: 70000 } as const;

  it.each([
    ['Atelier Lumière', 'Paiement de 500,00 € reçu d’Atelier Lumière par carte bancaire le 12 mars 2026.'],
    ['Hôtel du Parc', 'Paiement de 500,00 € reçu d’Hôtel du Parc par carte bancaire'],
    ['Boulangerie Martin', 'Paiement de 500,00 € reçu de Boulangerie Martin par carte bancaire'],
  ])('names the client %s with « de » elided as French writes it', async (client_name, body) => {
    const r = await renderEmail('payment_received', { ...data, client_name }, 'fr');
    expect(plain(r.text)).toContain(body);
    expect(plain(r.html)).toContain(body);
    expect(r.text).not.toMatch(/ de [AEIOUÀÂÉÈÊÎÔÛH]/);
  });

  it('says « la facture d’acompte » in the heading, « payée » once it is paid', async () => {
    const part = await renderEmail('payment_received', { ...data, document_type: 'acompte', client_name: 'Atelier Lumière' }, 'fr');
    expect(plain(part.subject)).toBe('Paiement reçu – Facture d’acompte F-2026-00012 – 500,00 €');
    expect(part.html).toContain('Paiement reçu pour la facture d’acompte F-2026-00012');
    const paid = await renderEmail('payment_received', { ...data, remaining_cents: 0 }, 'fr');
    expect(plain(paid.subject)).toBe('Facture F-2026-00012 payée – paiement de 500,00 € reçu');
    expect(paid.text).toContain('La facture est payée : ses relances sont arrêtées.');
  });
});
