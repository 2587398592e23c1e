import {
  acceptAction,
  cancelAction,
  convertAction,
  creditNoteAction,
  deleteDraftAction,
  deletePaymentAction,
  depositAction,
  duplicateAction,
  finalizeAction,
  recordPaymentAction,
  recordRefundAction,
  refundByCardAction,
  rejectAction,
} from '../actions';

/*
 * The document page's actions, bound to the document on the server: a client component gets them ready to use.
 * Binding there instead hangs a no-JavaScript submission for good (lib/platform/next/form-state.ts, BoundFormAction).
 */

export function documentActions(id: string) {
  return {
    finalize: finalizeAction.bind(null, id),
    accept: acceptAction.bind(null, id),
    reject: rejectAction.bind(null, id),
    duplicate: duplicateAction.bind(null, id),
    cancel: cancelAction.bind(null, id),
    delete: deleteDraftAction.bind(null, id),
    deposit: depositAction.bind(null, id),
    convert: convertAction.bind(null, id),
    creditNote: creditNoteAction.bind(null, id),
    recordPayment: recordPaymentAction.bind(null, id),
  };
}

export type DocumentActionSet = ReturnType<typeof documentActions>;

export const paymentDeletion = (documentId: string, paymentId: string) => deletePaymentAction.bind(null, documentId, paymentId);

/** A refund to the client of the invoice `invoiceId` (a credit note's page binds it to the invoice it credits). */
export const refundOf = (invoiceId: string) => recordRefundAction.bind(null, invoiceId);

/** A refund through Stripe to the client of the invoice `invoiceId` (from it or from its credit note). */
export const cardRefundOf = (invoiceId: string) => refundByCardAction.bind(null, invoiceId);
