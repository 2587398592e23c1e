import { z } from 'zod';
import { formatInstant } from '@/lib/platform/format';
import { Action, Facts, Layout, Notice, P, SignOff } from './layout';
import type { Language } from './nouns';
import type { RenderedTemplate } from './types';

/**
 * The seal job failed for good: to the sender, with the cause and the back-office page where the seal is retried.
 * The cause is the envelope's `evidence.error_code` (lib/domain/signature/evidence-state.ts); a code this copy does not
 * know reads as the generic cause, so that a new code never stops the e-mail.
 */
export const SignatureSealFailedData = z
  .object({
    seller_name: z.string().trim().min(1).max(200),
    sender_name: z.string().trim().max(200).nullish(),
    recipient_name: z.string().trim().max(200).nullish(),
    document_title: z.string().trim().min(1).max(300),
    /** completed: every signer signed; declined: only the proof was to be made. */
    envelope_status: z.enum(['completed', 'declined']),
    error_code: z.string().trim().min(1).max(100),
    attempts: z.number().int().min(0),
    failed_at: z.iso.datetime({ offset: true }),
    envelope_url: z.url({ protocol: /^https?$/ }),
  })
  .strict();
type SealFailed = z.output<typeof SignatureSealFailedData>;

const COPY = {
  fr: {
    subject: (d: SealFailed) => `Action requise : le scellement de « ${d.document_title} » a échoué`,
    heading: 'Le document signé n’a pas pu être scellé',
    hello: (name?: string | null) => (name ? `Bonjour ${name},` : 'Bonjour,'),
    completed: (d: SealFailed) =>
      `Tous les signataires ont signé « ${d.document_title} », mais le document signé et le dossier de preuve n’ont pas pu être produits. Les signataires n’ont pas encore reçu leur exemplaire : ils le recevront dès que le scellement aura réussi.`,
    declined: (d: SealFailed) => `L’enveloppe « ${d.document_title} » a été refusée, et son dossier de preuve n’a pas pu être produit.`,
    cause: 'Cause',
    attempts: 'Tentatives',
    failedAt: 'Dernier échec le',
    next: 'Une fois la cause corrigée, relancez le scellement depuis la page de l’enveloppe (« Relancer le scellement »). Les signatures recueillies restent valables dans la chaîne d’audit.',
    action: 'Ouvrir l’enveloppe',
    closing: 'Bien cordialement,',
    causes: {
      original_missing: 'le PDF original n’est plus dans le stockage.',
      original_altered: 'le PDF original stocké ne correspond plus à l’empreinte enregistrée à l’envoi.',
      original_unreadable: 'le PDF original ne peut pas être lu.',
      signature_image_invalid: 'l’image d’une signature dessinée est illisible.',
      certificate_unavailable: 'le certificat de scellement de l’instance est indisponible ou expiré.',
      internal_error: 'une erreur technique (stockage ou service) ; contactez le support si elle persiste.',
    } as Record<string, string>,
  },
  en: {
    subject: (d: SealFailed) => `Action required: sealing “${d.document_title}” failed`,
    heading: 'The signed document could not be sealed',
    hello: (name?: string | null) => (name ? `Hello ${name},` : 'Hello,'),
    completed: (d: SealFailed) =>
      `Every signer has signed “${d.document_title}”, but the signed document and the evidence report could not be produced. The signers have not received their copy yet: they will as soon as the seal succeeds.`,
    declined: (d: SealFailed) => `The envelope “${d.document_title}” was declined, and its evidence report could not be produced.`,
    cause: 'Cause',
    attempts: 'Attempts',
    failedAt: 'Last failure on',
    next: 'Once the cause is fixed, retry the seal from the envelope’s page (“Relancer le scellement”). The signatures collected remain valid in the audit chain.',
    action: 'Open the envelope',
    closing: 'Best regards,',
    causes: {
      original_missing: 'the original PDF is no longer in storage.',
      original_altered: 'the stored original PDF no longer matches the hash recorded when it was sent.',
      original_unreadable: 'the original PDF cannot be read.',
      signature_image_invalid: 'the image of a drawn signature cannot be decoded.',
      certificate_unavailable: 'the instance’s sealing certificate is unavailable or expired.',
      internal_error: 'a technical error (storage or service); contact support if it persists.',
    } as Record<string, string>,
  },
} as const;

export function signatureSealFailed(d: SealFailed, lang: Language): RenderedTemplate {
  const c = COPY[lang];
  const body = d.envelope_status === 'completed' ? c.completed(d) : c.declined(d);
  const cause = c.causes[d.error_code] ?? c.causes.internal_error!;
  return {
    subject: c.subject(d),
    element: (
      <Layout lang={lang} seller={d.seller_name} preview={body} heading={c.heading}>
        <P>{c.hello(d.recipient_name)}</P>
        <P>{body}</P>
        <Facts
          rows={[
            [c.cause, cause],
            [c.attempts, String(d.attempts)],
            [c.failedAt, formatInstant(d.failed_at, { lang })],
          ]}
        />
        <Notice>{c.next}</Notice>
        <Action href={d.envelope_url} label={c.action} />
        <SignOff closing={c.closing} seller={d.seller_name} />
      </Layout>
    ),
  };
}
