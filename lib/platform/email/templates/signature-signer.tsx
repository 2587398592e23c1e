import { z } from 'zod';
import { formatInstant } from '@/lib/platform/format';
import { ofName } from '@/lib/platform/i18n';
import { Action, Facts, Layout, Message, Notice, P, SignOff } from './layout';
import type { Language } from './nouns';
import type { RenderedTemplate } from './types';

/** A one-time code for a signer (DESIGN §12: 6 digits, valid 10 minutes). */
export const SignatureCodeData = z
  .object({
    seller_name: z.string().trim().min(1).max(200),
    recipient_name: z.string().trim().max(200).nullish(),
    document_title: z.string().trim().min(1).max(300),
    code: z.string().regex(/^\d{6}$/),
    valid_minutes: z.number().int().min(1).max(60),
  })
  .strict();

/** A signer declined: to the sender (with the back-office link) and to the other signers already notified. */
export const SignatureDeclinedData = z
  .object({
    seller_name: z.string().trim().min(1).max(200),
    sender_name: z.string().trim().max(200).nullish(),
    recipient_name: z.string().trim().max(200).nullish(),
    document_title: z.string().trim().min(1).max(300),
    /** The signer who declined: their name, else their e-mail. */
    declined_by: z.string().trim().min(1).max(300),
    reason: z.string().trim().max(2000).nullish(),
    declined_at: z.iso.datetime({ offset: true }),
    to_sender: z.boolean(),
    envelope_url: z.url({ protocol: /^https?$/ }).nullish(),
  })
  .strict();

type Code = z.output<typeof SignatureCodeData>;
type Declined = z.output<typeof SignatureDeclinedData>;

const COPY = {
  fr: {
    hello: (name?: string | null) => (name ? `Bonjour ${name},` : 'Bonjour,'),
    closing: 'Bien cordialement,',
    code: {
      subject: (d: Code) => `Votre code de signature : ${d.code}`,
      heading: 'Votre code de vérification',
      body: (d: Code) => `Voici le code qui confirme votre identité pour signer le document « ${d.document_title} » ${ofName(d.seller_name)} :`,
      facts: (d: Code): Array<[string, string]> => [
        ['Code', d.code],
        ['Valable', `${d.valid_minutes} minutes`],
      ],
      notYou: 'Si vous n’avez pas demandé ce code, ignorez ce message. Ne le communiquez à personne : personne ne vous le demandera.',
    },
    declined: {
      subject: (d: Declined) => `Signature refusée : ${d.document_title}`,
      heading: 'La signature a été refusée',
      body: (d: Declined, at: string) => `${d.declined_by} a refusé de signer le document « ${d.document_title} » le ${at}. L’enveloppe est close : plus personne ne peut la signer.`,
      reason: 'Motif indiqué :',
      senderNext: 'Vous pouvez consulter l’enveloppe et sa preuve depuis sa page, puis en préparer une nouvelle si besoin.',
      signerNext: (d: Declined) => `Votre lien de signature ne fonctionne plus. Pour toute question, contactez ${d.seller_name}.`,
      action: 'Ouvrir l’enveloppe',
    },
  },
  en: {
    hello: (name?: string | null) => (name ? `Hello ${name},` : 'Hello,'),
    closing: 'Best regards,',
    code: {
      subject: (d: Code) => `Your signing code: ${d.code}`,
      heading: 'Your verification code',
      body: (d: Code) => `Here is the code that confirms your identity to sign the document “${d.document_title}” of ${d.seller_name}:`,
      facts: (d: Code): Array<[string, string]> => [
        ['Code', d.code],
        ['Valid for', `${d.valid_minutes} minutes`],
      ],
      notYou: 'If you did not ask for this code, ignore this message. Share it with no one: nobody will ask you for it.',
    },
    declined: {
      subject: (d: Declined) => `Signature declined: ${d.document_title}`,
      heading: 'The signature was declined',
      body: (d: Declined, at: string) => `${d.declined_by} declined to sign the document “${d.document_title}” on ${at}. The envelope is closed: nobody can sign it any more.`,
      reason: 'Reason given:',
      senderNext: 'You can review the envelope and its proof from its page, then prepare a new one if needed.',
      signerNext: (d: Declined) => `Your signing link no longer works. For any question, contact ${d.seller_name}.`,
      action: 'Open the envelope',
    },
  },
} as const;

/** The one-time code a signer asked for on the signing page (sms_otp signers get it by SMS instead). */
export function signatureCode(d: Code, lang: Language): RenderedTemplate {
  const c = COPY[lang];
  const body = c.code.body(d);
  return {
    subject: c.code.subject(d),
    element: (
      <Layout lang={lang} seller={d.seller_name} preview={body} heading={c.code.heading}>
        <P>{c.hello(d.recipient_name)}</P>
        <P>{body}</P>
        <Facts rows={c.code.facts(d)} />
        <Notice>{c.code.notYou}</Notice>
        <SignOff closing={c.closing} seller={d.seller_name} />
      </Layout>
    ),
  };
}

/** A signer declined: the sender learns who and why; the other signers that their link is dead. */
export function signatureDeclined(d: Declined, lang: Language): RenderedTemplate {
  const c = COPY[lang];
  const body = c.declined.body(d, formatInstant(d.declined_at, { lang }));
  const from = d.sender_name && d.sender_name !== d.seller_name ? `${d.sender_name} (${d.seller_name})` : d.seller_name;
  return {
    subject: c.declined.subject(d),
    element: (
      <Layout lang={lang} seller={d.seller_name} preview={body} heading={c.declined.heading}>
        <P>{c.hello(d.recipient_name)}</P>
        <P>{body}</P>
        {d.reason && <P strong>{c.declined.reason}</P>}
        {d.reason && <Message text={d.reason} />}
        {d.to_sender ? <Notice>{c.declined.senderNext}</Notice> : <P>{c.declined.signerNext(d)}</P>}
        {d.to_sender && <Action href={d.envelope_url} label={c.declined.action} />}
        <SignOff closing={c.closing} seller={from} />
      </Layout>
    ),
  };
}
