import { previewSendForPayment, sendForPayment } from '@/lib/domain/payments';
import { previewSend, SendDocumentInput, sendDocument } from '@/lib/domain/sending';
import { ApiError } from '@/lib/platform/errors';
import { plural, pluralWord } from '@/lib/platform/format';
import { CODE_MESSAGES } from '@/lib/platform/i18n';
import { idOf, refuse, type StaffContext } from '@/lib/platform/next';

/*
 * The one send dialog's work apart from its wrappers (send-document-actions.ts adds revalidation): « Joindre le lien
 * de paiement » checked takes the path of POST /v1/invoices/{id}/send-for-payment, unchecked that of /send — the same
 * e-mail, the first with its "Payer en ligne" call to action. The tests run these handlers under a given session.
 */

export interface SendFields {
  input: SendDocumentInput;
  payLink: boolean;
}

/** The dialog's fields: copies typed as a list separated by commas, spaces or semicolons; the pay link's box. */
export function sendFieldsOf(text: (name: string) => string): SendFields {
  const input = SendDocumentInput.parse({
    email: text('email'),
    cc: text('cc')
      .split(/[\s,;]+/)
      .filter(Boolean),
    subject: text('subject'),
    message: text('message'),
  });
  return { input, payLink: text('pay_link') === 'on' };
}

export const sendFormFields = (form: FormData) => sendFieldsOf((name) => String(form.get(name) ?? ''));

/** The provider's 5xx (online payment off, the provider not answering) as refusals said in the dialog, not the error page. */
async function refusingOutages<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof ApiError && (err.code === 'payments_disabled' || err.code === 'payments_provider_error')) {
      refuse({ _form: CODE_MESSAGES[err.code]! });
    }
    throw err;
  }
}

/** « Envoyer »: by /send, or by /send-for-payment when the pay link is asked for. */
export async function sendHandler({ db, orgId }: StaffContext, { input, payLink }: SendFields, documentId: string) {
  const id = idOf(documentId);
  const result = payLink ? await refusingOutages(() => sendForPayment(db, orgId, id, input)) : await sendDocument(db, orgId, id, input);
  const n = result.scheduled_reminders;
  const what = payLink ? 'Document envoyé avec le lien de paiement en ligne.' : 'Document envoyé.';
  return { done: `${what}${n > 0 ? ` ${plural(n, 'relance')} ${pluralWord(n, 'programmée')}.` : ''}` };
}

/** « Aperçu de l’e-mail »: what « Envoyer » would send with these fields, nothing sent nor minted. */
export async function previewHandler({ db, orgId }: StaffContext, documentId: string, fields: Record<string, string>) {
  const { input, payLink } = sendFieldsOf((name) => String(fields[name] ?? ''));
  const id = idOf(documentId);
  const preview = payLink ? await refusingOutages(() => previewSendForPayment(db, orgId, id, input)) : await previewSend(db, orgId, id, input);
  return { ...preview, pay_link: payLink };
}
