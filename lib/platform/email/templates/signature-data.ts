import { z } from 'zod';

const Url = z.url({ protocol: /^https?$/ });
const Instant = z.iso.datetime({ offset: true });

/** What every signature e-mail shares: who asks, whom it greets, what is signed. */
const Common = {
  /** The org's name. */
  seller_name: z.string().trim().min(1).max(200),
  /** The envelope's sender name, when it names a person ("Jeanne Martin de Atelier Dupont"). */
  sender_name: z.string().trim().max(200).nullish(),
  /** "Bonjour Jeanne," when given, "Bonjour," otherwise. */
  recipient_name: z.string().trim().max(200).nullish(),
  /** The envelope's subject, or the document's name ("Devis D-2026-0042", "contrat.pdf"). */
  document_title: z.string().trim().min(1).max(300),
};

/** A signer's turn (request) or a reminder of it: the link to the signing page. */
export const SignatureRequestData = z
  .object({
    ...Common,
    /** The sender's own words, quoted as written. */
    message: z.string().trim().max(5000).nullish(),
    sign_url: Url,
    /** When the link stops working (ISO 8601 instant), if the envelope expires. */
    expires_at: Instant.nullish(),
  })
  .strict();

/** An envelope passed its expiry date unsigned: to its signers and to its sender. */
export const SignatureExpiredData = z
  .object({
    ...Common,
    expired_at: Instant,
    /** The sender's version (with the back-office link to reactivate it) rather than a signer's. */
    to_sender: z.boolean(),
    /** The back-office page of the envelope (sender only). */
    envelope_url: Url.nullish(),
  })
  .strict();

/** A staff member was made an approver of an envelope: it cannot be sent before they approve. */
export const SignatureApprovalRequestedData = z
  .object({
    ...Common,
    /** The back-office page of the envelope, where it is approved. */
    envelope_url: Url,
  })
  .strict();
