import { z } from 'zod';
import { formatInstant } from '@/lib/platform/format';
import { Facts, Layout, P, SignOff } from './layout';
import type { Language } from './nouns';
import type { RenderedTemplate } from './types';

/** Every signer signed: to the signers, the sender and the copied recipients, with the signed PDF attached. */
export const SignatureCompletedData = z
  .object({
    seller_name: z.string().trim().min(1).max(200),
    sender_name: z.string().trim().max(200).nullish(),
    recipient_name: z.string().trim().max(200).nullish(),
    document_title: z.string().trim().min(1).max(300),
    completed_at: z.iso.datetime({ offset: true }),
    /** The signers, by name or e-mail, in order. */
    signers: z.array(z.string().trim().min(1).max(300)).min(1).max(50),
    /** What is attached: the sealed signed PDF, or the proof when the envelope had no positioned field. */
    attachment: z.enum(['signed', 'proof']),
  })
  .strict();
type Completed = z.output<typeof SignatureCompletedData>;

const COPY = {
  fr: {
    subject: (d: Completed) => `Document signé : ${d.document_title} – ${d.seller_name}`,
    heading: 'Le document est signé',
    hello: (name?: string | null) => (name ? `Bonjour ${name},` : 'Bonjour,'),
    body: (d: Completed) => `Tous les signataires ont signé le document « ${d.document_title} ».`,
    signed: 'Vous trouverez en pièce jointe le document signé, scellé électroniquement : tout lecteur PDF affiche la validité de son sceau.',
    proof: 'Vous trouverez en pièce jointe le rapport de preuve de la signature (signataires, dates, vérifications, journal d’audit).',
    completedAt: 'Signé le',
    signers: 'Signataires',
    closing: 'Bien cordialement,',
  },
  en: {
    subject: (d: Completed) => `Document signed: ${d.document_title} – ${d.seller_name}`,
    heading: 'The document is signed',
    hello: (name?: string | null) => (name ? `Hello ${name},` : 'Hello,'),
    body: (d: Completed) => `Every signer has signed the document “${d.document_title}”.`,
    signed: 'The signed document is attached, electronically sealed: any PDF reader shows whether its seal is valid.',
    proof: 'The evidence report of the signature is attached (signers, times, verifications, audit log).',
    completedAt: 'Signed on',
    signers: 'Signers',
    closing: 'Best regards,',
  },
} as const;

export function signatureCompleted(d: Completed, lang: Language): RenderedTemplate {
  const c = COPY[lang];
  const body = c.body(d);
  const from = d.sender_name && d.sender_name !== d.seller_name ? `${d.sender_name} (${d.seller_name})` : d.seller_name;
  return {
    subject: c.subject(d),
    element: (
      <Layout lang={lang} seller={d.seller_name} preview={body} heading={c.heading}>
        <P>{c.hello(d.recipient_name)}</P>
        <P>{body}</P>
        <Facts
          rows={[
            [c.completedAt, formatInstant(d.completed_at, { lang })],
            [c.signers, d.signers.join(', ')],
          ]}
        />
        <P>{d.attachment === 'signed' ? c.signed : c.proof}</P>
        <SignOff closing={c.closing} seller={from} />
      </Layout>
    ),
  };
}
