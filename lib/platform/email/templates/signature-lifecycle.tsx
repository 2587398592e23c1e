import type { z } from 'zod';
import { formatInstant } from '@/lib/platform/format';
import { ofName } from '@/lib/platform/i18n';
import { Action, Facts, Layout, Message, Notice, opensWithGreeting, P, SignOff } from './layout';
import type { Language } from './nouns';
import type { SignatureApprovalRequestedData, SignatureExpiredData, SignatureRequestData } from './signature-data';
import type { RenderedTemplate } from './types';

type Request = z.output<typeof SignatureRequestData>;
type Expired = z.output<typeof SignatureExpiredData>;
type Approval = z.output<typeof SignatureApprovalRequestedData>;

/** "Jeanne Martin (Atelier Dupont)" when the envelope names its sender, else the org. */
const who = (d: { seller_name: string; sender_name?: string | null }) =>
  d.sender_name && d.sender_name !== d.seller_name ? `${d.sender_name} (${d.seller_name})` : d.seller_name;

const COPY = {
  fr: {
    hello: (name?: string | null) => (name ? `Bonjour ${name},` : 'Bonjour,'),
    closing: 'Bien cordialement,',
    request: {
      subject: (d: Request) => `Document à signer : ${d.document_title} – ${d.seller_name}`,
      heading: 'Un document vous attend pour signature',
      body: (d: Request, from: string) => `${from} vous invite à signer électroniquement le document « ${d.document_title} ».`,
      action: 'Consulter et signer le document',
      until: 'Lien valable jusqu’au',
      howto: 'Le lien ouvre une page où vous lisez le document avant de le signer. Il vous est personnel : ne le transférez pas.',
    },
    reminder: {
      subject: (d: Request) => `Rappel : document à signer – ${d.document_title} – ${d.seller_name}`,
      heading: 'Rappel : votre signature est attendue',
      body: (d: Request, from: string) => `${from} attend toujours votre signature sur le document « ${d.document_title} ».`,
    },
    expired: {
      subject: (d: Expired) => `Demande de signature expirée : ${d.document_title}`,
      heading: 'La demande de signature a expiré',
      signer: (d: Expired, at: string) => `La demande de signature du document « ${d.document_title} » a expiré le ${at} sans être terminée. Le lien ne fonctionne plus.`,
      signerNext: (d: Expired) => `Si vous souhaitez toujours signer, contactez ${d.seller_name} : une nouvelle demande pourra vous être envoyée.`,
      sender: (d: Expired, at: string) => `L’enveloppe « ${d.document_title} » a expiré le ${at} avant que tous les signataires aient signé. Les liens de signature ne fonctionnent plus.`,
      senderNext: 'Vous pouvez la réactiver depuis sa page : les signataires qui n’ont pas signé recevront un nouveau lien.',
      action: 'Ouvrir l’enveloppe',
    },
    approval: {
      subject: (d: Approval) => `Approbation demandée : ${d.document_title}`,
      heading: 'Votre approbation est demandée',
      body: (d: Approval) => `Vous êtes approbateur de l’enveloppe de signature « ${d.document_title} » ${ofName(d.seller_name)}. Elle ne pourra pas être envoyée aux signataires avant votre approbation.`,
      action: 'Relire et approuver',
    },
  },
  en: {
    hello: (name?: string | null) => (name ? `Hello ${name},` : 'Hello,'),
    closing: 'Best regards,',
    request: {
      subject: (d: Request) => `Document to sign: ${d.document_title} – ${d.seller_name}`,
      heading: 'A document is waiting for your signature',
      body: (d: Request, from: string) => `${from} invites you to sign the document “${d.document_title}” electronically.`,
      action: 'Review and sign the document',
      until: 'Link valid until',
      howto: 'The link opens a page where you read the document before signing it. It is personal to you: do not forward it.',
    },
    reminder: {
      subject: (d: Request) => `Reminder: document to sign – ${d.document_title} – ${d.seller_name}`,
      heading: 'Reminder: your signature is awaited',
      body: (d: Request, from: string) => `${from} is still waiting for your signature on the document “${d.document_title}”.`,
    },
    expired: {
      subject: (d: Expired) => `Signature request expired: ${d.document_title}`,
      heading: 'The signature request has expired',
      signer: (d: Expired, at: string) => `The signature request for the document “${d.document_title}” expired on ${at} before it was completed. The link no longer works.`,
      signerNext: (d: Expired) => `If you still wish to sign, contact ${d.seller_name}: a new request can be sent to you.`,
      sender: (d: Expired, at: string) => `The envelope “${d.document_title}” expired on ${at} before every signer signed. The signing links no longer work.`,
      senderNext: 'You can reactivate it from its page: the signers who have not signed will get a new link.',
      action: 'Open the envelope',
    },
    approval: {
      subject: (d: Approval) => `Approval requested: ${d.document_title}`,
      heading: 'Your approval is requested',
      body: (d: Approval) => `You are an approver of the signature envelope “${d.document_title}” of ${d.seller_name}. It cannot be sent to its signers before you approve it.`,
      action: 'Review and approve',
    },
  },
} as const;

function requestOrReminder(d: Request, lang: Language, reminder: boolean): RenderedTemplate {
  const c = COPY[lang];
  const from = who(d);
  const body = reminder ? c.reminder.body(d, from) : c.request.body(d, from);
  const until = d.expires_at ? formatInstant(d.expires_at, { lang }) : null;
  return {
    subject: reminder ? c.reminder.subject(d) : c.request.subject(d),
    element: (
      <Layout lang={lang} seller={d.seller_name} preview={body} heading={reminder ? c.reminder.heading : c.request.heading}>
        {/* A message that greets the reader itself takes the greeting's place (and is not repeated below). */}
        {opensWithGreeting(d.message) ? <Message text={d.message} /> : <P>{c.hello(d.recipient_name)}</P>}
        <P>{body}</P>
        {!opensWithGreeting(d.message) && <Message text={d.message} />}
        {until && <Facts rows={[[c.request.until, until]]} />}
        <Action href={d.sign_url} label={c.request.action} />
        <P>{c.request.howto}</P>
        <SignOff closing={c.closing} seller={from} />
      </Layout>
    ),
  };
}

/** A signer's turn has come: the link to the signing page. */
export const signatureRequest = (d: Request, lang: Language) => requestOrReminder(d, lang, false);
/** The same link again, to a signer whose turn it is and who has not signed. */
export const signatureReminder = (d: Request, lang: Language) => requestOrReminder(d, lang, true);

/** The envelope expired unsigned: each signer is told the link is dead; the sender how to reactivate it. */
export function signatureExpired(d: Expired, lang: Language): RenderedTemplate {
  const c = COPY[lang];
  const at = formatInstant(d.expired_at, { lang });
  const body = d.to_sender ? c.expired.sender(d, at) : c.expired.signer(d, at);
  return {
    subject: c.expired.subject(d),
    element: (
      <Layout lang={lang} seller={d.seller_name} preview={body} heading={c.expired.heading}>
        <P>{c.hello(d.recipient_name)}</P>
        <P>{body}</P>
        {d.to_sender ? <Notice>{c.expired.senderNext}</Notice> : <P>{c.expired.signerNext(d)}</P>}
        {d.to_sender && <Action href={d.envelope_url} label={c.expired.action} />}
        <SignOff closing={c.closing} seller={d.seller_name} />
      </Layout>
    ),
  };
}

/** To a staff member made approver: the back-office page where they approve. */
export function signatureApprovalRequested(d: Approval, lang: Language): RenderedTemplate {
  const c = COPY[lang];
  const body = c.approval.body(d);
  return {
    subject: c.approval.subject(d),
    element: (
      <Layout lang={lang} seller={d.seller_name} preview={body} heading={c.approval.heading}>
        <P>{c.hello(d.recipient_name)}</P>
        <P>{body}</P>
        <Action href={d.envelope_url} label={c.approval.action} />
        <SignOff closing={c.closing} seller={who(d)} />
      </Layout>
    ),
  };
}
