import type { z } from 'zod';
import { formatDay, formatMoney } from '@/lib/platform/format';
import type { PaymentReminderData, ReminderTone } from './data';
import { DOCUMENT_NOUN, type Language } from './nouns';
import { Action, Facts, Layout, Message, Notice, opensWithGreeting, P, SignOff } from './layout';
import type { RenderedTemplate } from './types';

type Data = z.output<typeof PaymentReminderData>;

interface Copy {
  subject: (noun: string, number: string, due: string) => string;
  heading: string;
  body: (noun: string, number: string, amount: string, due: string) => string;
  ask: string;
  alreadyPaid: string | null;
  closing: string;
}

/** The ladder's voice, step by step: courteous before the due date, firm after it, formal at the last notice. */
const COPY: Record<Language, Record<ReminderTone, Copy> & { hello: (name?: string | null) => string; facts: Record<'number' | 'due' | 'amount', string>; pay: string; penalties: (terms: string | null | undefined) => string; recovery: string }> = {
  fr: {
    hello: (name) => (name ? `Bonjour ${name},` : 'Bonjour,'),
    facts: { number: 'Numéro', due: 'Échéance', amount: 'Reste à payer' },
    pay: 'Régler en ligne',
    gentle: {
      subject: (noun, number, due) => `Petit rappel : ${noun} ${number} à échéance le ${due}`,
      heading: 'Un petit rappel',
      body: (noun, number, amount, due) => `Nous nous permettons de vous rappeler que notre ${noun} ${number}, d’un montant restant dû de ${amount}, arrive à échéance le ${due}.`,
      ask: 'Nous vous remercions par avance de votre règlement.',
      alreadyPaid: 'Si vous avez déjà procédé au paiement, merci de ne pas tenir compte de ce message.',
      closing: 'Bien cordialement,',
    },
    firm: {
      subject: (noun, number) => `Relance : ${noun} ${number} impayée`,
      heading: 'Paiement en retard',
      body: (noun, number, amount, due) => `Sauf erreur de notre part, notre ${noun} ${number}, échue le ${due}, reste impayée à ce jour pour un montant de ${amount}.`,
      ask: 'Nous vous remercions de bien vouloir procéder à son règlement dans les meilleurs délais.',
      alreadyPaid: 'Si votre paiement est en cours, merci de ne pas tenir compte de ce message.',
      closing: 'Cordialement,',
    },
    final: {
      subject: (noun, number) => `Dernier rappel avant recouvrement : ${noun} ${number}`,
      heading: 'Dernier rappel avant recouvrement',
      body: (noun, number, amount, due) => `Malgré nos précédentes relances, notre ${noun} ${number}, échue depuis le ${due}, demeure impayée pour un montant de ${amount}.`,
      ask: 'Nous vous demandons de procéder à son règlement sous huit jours à compter de la réception de ce message.',
      alreadyPaid: null,
      closing: 'Veuillez agréer nos salutations distinguées,',
    },
    penalties: (terms) =>
      `Conformément à l’article L441-10 du Code de commerce, tout retard de paiement entraîne de plein droit l’application de pénalités de retard ${terms?.trim() || 'au taux indiqué sur la facture'}, ainsi que d’une indemnité forfaitaire pour frais de recouvrement de 40 €.`,
    recovery: 'À défaut de règlement dans ce délai, nous serons contraints d’engager une procédure de recouvrement.',
  },
  en: {
    hello: (name) => (name ? `Hello ${name},` : 'Hello,'),
    facts: { number: 'Number', due: 'Due date', amount: 'Amount due' },
    pay: 'Pay online',
    gentle: {
      subject: (noun, number, due) => `Friendly reminder: ${noun} ${number} is due on ${due}`,
      heading: 'A friendly reminder',
      body: (noun, number, amount, due) => `This is a friendly reminder that our ${noun} ${number}, with ${amount} outstanding, is due on ${due}.`,
      ask: 'Thank you in advance for your payment.',
      alreadyPaid: 'If you have already paid, please disregard this message.',
      closing: 'Best regards,',
    },
    firm: {
      subject: (noun, number) => `Overdue: ${noun} ${number} is unpaid`,
      heading: 'Payment overdue',
      body: (noun, number, amount, due) => `According to our records, our ${noun} ${number}, due on ${due}, remains unpaid with ${amount} outstanding.`,
      ask: 'Please arrange payment as soon as possible.',
      alreadyPaid: 'If your payment is already on its way, please disregard this message.',
      closing: 'Regards,',
    },
    final: {
      subject: (noun, number) => `Final notice before debt recovery: ${noun} ${number}`,
      heading: 'Final notice before debt recovery',
      body: (noun, number, amount, due) => `Despite our previous reminders, our ${noun} ${number}, overdue since ${due}, remains unpaid with ${amount} outstanding.`,
      ask: 'We ask you to settle it within eight days of receiving this notice.',
      alreadyPaid: null,
      closing: 'Yours faithfully,',
    },
    penalties: (terms) =>
      `Under Article L441-10 of the French Commercial Code, any late payment automatically incurs late-payment penalties ${terms?.trim() || 'at the rate stated on the invoice'}, together with a fixed indemnity of €40 for recovery costs.`,
    recovery: 'Failing payment within this period, we will have no choice but to start debt recovery proceedings.',
  },
};

export function paymentReminder(d: Data, lang: Language): RenderedTemplate {
  const all = COPY[lang];
  const c = all[d.tone];
  const noun = DOCUMENT_NOUN[lang][d.document_type];
  const amount = formatMoney(d.amount_due_cents, lang);
  const due = formatDay(d.due_date, lang, 'long');
  const body = c.body(noun, d.document_number, amount, due);
  return {
    subject: `${c.subject(noun, d.document_number, due)} – ${d.seller_name}`,
    element: (
      <Layout lang={lang} seller={d.seller_name} preview={body} heading={c.heading}>
        {/* A message that greets the reader itself takes the greeting's place (and is not repeated below). */}
        {opensWithGreeting(d.message) ? <Message text={d.message} /> : <P>{all.hello(d.recipient_name)}</P>}
        <P strong={d.tone === 'final'}>{body}</P>
        <Facts
          rows={[
            [all.facts.number, d.document_number],
            [all.facts.due, due],
            [all.facts.amount, amount],
          ]}
        />
        <P>{c.ask}</P>
        {d.tone === 'final' && (
          <>
            {d.business_client && <Notice>{all.penalties(d.late_penalty_terms)}</Notice>}
            <P>{all.recovery}</P>
          </>
        )}
        {!opensWithGreeting(d.message) && <Message text={d.message} />}
        <Action href={d.pay_url} label={all.pay} />
        {c.alreadyPaid && <P>{c.alreadyPaid}</P>}
        <SignOff closing={c.closing} seller={d.seller_name} />
      </Layout>
    ),
  };
}
