import { ApiError } from '@/lib/platform/errors';
import { buildFacturX, isEInvoice } from './cii';
import { type EInvoiceError, validateEInvoice } from './einvoice-validation';
import type { InvoiceModel } from './model';

export function einvoiceInvalid(errors: EInvoiceError[]): ApiError {
  const rules = [...new Set(errors.map((e) => e.rule))];
  return new ApiError(
    422,
    'einvoice_invalid',
    `The e-invoice of this document breaks ${rules.length === 1 ? 'a rule' : `${rules.length} rules`} a PA would refuse it for: ${rules.join(', ')}.`,
    null,
    {},
    { errors },
  );
}

/**
 * The rules a PA would refuse the document's Factur-X for (XSD, CEN EN 16931, Factur-X 1.0.9, BR-FR): none for a
 * quote, which has no e-invoice. The model must carry a number (a draft: the one finalizing it would take).
 * validateEInvoice keeps its answers by the XML's hash, so the same CII is validated once (the draft page's check,
 * then its finalization).
 */
export async function einvoiceErrors(model: InvoiceModel): Promise<EInvoiceError[]> {
  if (!isEInvoice(model.type)) return [];
  return validateEInvoice(buildFacturX(model));
}

/**
 * The check before sealing (lib/domain/documents finalizeLocked calls it with the row it has just numbered, dated
 * and frozen, in its transaction): throws 422 einvoice_invalid listing every rule broken, which rolls the whole
 * finalization back (no number consumed, nothing sealed).
 */
export async function assertValidEInvoice(model: InvoiceModel): Promise<void> {
  const errors = await einvoiceErrors(model);
  if (errors.length > 0) throw einvoiceInvalid(errors);
}
