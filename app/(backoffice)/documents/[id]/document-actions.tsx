'use client';

import { startTransition, useActionState, useEffect, useMemo, useState, useTransition } from 'react';
import { Button, DataTable, Dialog, Field, FormErrors, Input, LinkButton, MoneyInput, QuantityInput, Select, SubmitButton } from '@/components/ui';
import type { DocumentType } from '@/db/schema/billing';
import type { BillingDocument, DocumentItem } from '@/lib/domain/documents';
import { formatDecimalAsTyped, formatMoney, formatRate } from '@/lib/platform/format';
import { type FormState, initialFormState, isRefusal } from '@/lib/platform/next/client';
import { AmountOverflowError, computeTotals, Dec, type TotalsLine } from '@/lib/platform/money';
import { convertPreviewAction } from '../actions';
import { type Availability, depositPreview } from '../availability';
import { eurosToCents, quantityText } from '../editor-model';
import { thisDocument } from '@/lib/platform/i18n';
import { CREDIT_REASON_LABELS } from '../labels';
import type { DocumentActionSet } from './bound-actions';
import { ItemsTable } from './items-table';

interface Props {
  doc: { id: string; type: DocumentType; status: string; number: string | null; total_ttc: number; items: DocumentItem[] };
  can: Availability;
  actions: DocumentActionSet;
  defaultDepositPercentage: string;
  cancelConsequences: string[];
  /** The card's sentence when it has no button (availability.ts closedNotice), else null. */
  closed: string | null;
}

type Panel = 'finalize' | 'deposit' | 'convert' | 'credit' | 'cancel' | 'delete' | null;

/**
 * Every action the API offers on this document, as buttons; those that need a choice or deserve a warning open
 * a panel first (deposit percentage, conversion preview, credit note, cancellation, deletion, finalization).
 */
export function DocumentActions({ doc, can, actions, defaultDepositPercentage, cancelConsequences, closed }: Props) {
  const [panel, setPanel] = useState<Panel>(null);
  const [last, setLast] = useState<string | null>(null);
  const [finalizeState, finalizeForm] = useActionState(actions.finalize, initialFormState);
  const [acceptState, acceptForm] = useActionState(actions.accept, initialFormState);
  const [rejectState, rejectForm] = useActionState(actions.reject, initialFormState);
  const [duplicateState, duplicateForm] = useActionState(actions.duplicate, initialFormState);
  const [cancelState, cancelForm] = useActionState(actions.cancel, initialFormState);
  const [deleteState, deleteForm] = useActionState(actions.delete, initialFormState);
  const states: Record<string, FormState> = {
    finalize: finalizeState,
    accept: acceptState,
    reject: rejectState,
    duplicate: duplicateState,
    cancel: cancelState,
    delete: deleteState,
  };
  const message = last ? states[last] : undefined;
  const open = (p: Panel) => setPanel((current) => (current === p ? null : p));
  const sent = (name: string, close = true) => () => {
    setLast(name);
    if (close) setPanel(null);
  };

  return (
    <section className="card" aria-label="Actions">
      {closed ? (
        <p className="muted">{closed}</p>
      ) : (
        <div className="toolbar">
          {can.edit && (
            <LinkButton href={`/documents/${doc.id}/edit`}>
              Modifier
            </LinkButton>
          )}
          {can.finalize && (
            <Button variant="primary" aria-expanded={panel === 'finalize'} onClick={() => open('finalize')}>
              Finaliser…
            </Button>
          )}
          {can.accept && (
            <form action={acceptForm} onSubmit={sent('accept')}>
              <SubmitButton>Marquer accepté</SubmitButton>
            </form>
          )}
          {can.reject && (
            <form action={rejectForm} onSubmit={sent('reject')}>
              <SubmitButton variant="plain">Marquer refusé</SubmitButton>
            </form>
          )}
          {can.deposit && (
            <Button aria-expanded={panel === 'deposit'} onClick={() => open('deposit')}>
              Facture d’acompte…
            </Button>
          )}
          {can.convert && (
            <Button aria-expanded={panel === 'convert'} onClick={() => open('convert')}>
              Convertir en facture…
            </Button>
          )}
          {can.creditNote && (
            <Button aria-expanded={panel === 'credit'} onClick={() => open('credit')}>
              Établir un avoir…
            </Button>
          )}
          {can.duplicate && (
            <form action={duplicateForm} onSubmit={sent('duplicate')}>
              <SubmitButton variant="plain">Dupliquer</SubmitButton>
            </form>
          )}
          {can.cancel && (
            <Button variant="danger" aria-expanded={panel === 'cancel'} onClick={() => open('cancel')}>
              Annuler le document…
            </Button>
          )}
          {can.remove && (
            <Button variant="danger" aria-expanded={panel === 'delete'} onClick={() => open('delete')}>
              Supprimer…
            </Button>
          )}
        </div>
      )}

      {message && <FormErrors state={message} />}
      {message?.done && !message.error && (
        <p className="notice notice-success" role="status">
          {message.done}
        </p>
      )}

      {panel === 'finalize' && (
        <Dialog label="Finaliser le document" tone="warning">
          <strong>Finaliser {thisDocument(doc.type)} ?</strong>
          <ul>
            <li>Il reçoit le prochain numéro de sa série, sans trou ni doublon.</li>
            <li>Daté d’un jour passé, il prend la date du jour (ses échéance et validité gardent leur écart).</li>
            <li>Le client et le vendeur sont figés tels qu’aujourd’hui, et le document est scellé dans la chaîne d’intégrité : il ne pourra plus être modifié ni supprimé.</li>
          </ul>
          <form action={finalizeForm} onSubmit={sent('finalize')} className="form-actions">
            <SubmitButton pendingLabel="Finalisation…">Finaliser</SubmitButton>
            <Button variant="ghost" onClick={() => setPanel(null)}>
              Retour
            </Button>
          </form>
        </Dialog>
      )}
      {panel === 'deposit' && <DepositPanel doc={doc} action={actions.deposit} initial={defaultDepositPercentage} onClose={() => setPanel(null)} />}
      {panel === 'convert' && <ConvertPanel id={doc.id} action={actions.convert} onClose={() => setPanel(null)} />}
      {panel === 'credit' && <CreditNotePanel doc={doc} action={actions.creditNote} onClose={() => setPanel(null)} />}
      {panel === 'cancel' && (
        <div className="notice notice-warning" role="alertdialog" aria-label="Annuler le document">
          <strong>Annuler {doc.number ?? 'ce brouillon'} ?</strong>
          <ul>
            {cancelConsequences.map((c) => (
              <li key={c}>{c}</li>
            ))}
          </ul>
          <form action={cancelForm} onSubmit={sent('cancel')} className="form-actions">
            <SubmitButton variant="danger" pendingLabel="Annulation…">
              Annuler le document
            </SubmitButton>
            <Button variant="ghost" onClick={() => setPanel(null)}>
              Ne pas annuler
            </Button>
          </form>
        </div>
      )}
      {panel === 'delete' && (
        <div className="notice notice-warning" role="alertdialog" aria-label="Supprimer le brouillon">
          <strong>Supprimer ce brouillon ?</strong>
          <p>Il n’a pas de numéro : aucun numéro de la série n’est perdu. La suppression est définitive.</p>
          <form action={deleteForm} onSubmit={sent('delete')} className="form-actions">
            <SubmitButton variant="danger">Supprimer le brouillon</SubmitButton>
            <Button variant="ghost" onClick={() => setPanel(null)}>
              Garder
            </Button>
          </form>
        </div>
      )}
    </section>
  );
}

function DepositPanel({ doc, action, initial, onClose }: { doc: Props['doc']; action: DocumentActionSet['deposit']; initial: string; onClose: () => void }) {
  const [percentage, setPercentage] = useState(formatDecimalAsTyped(initial));
  const [state, formAction] = useActionState(action, initialFormState);
  const preview = useMemo(() => depositPreview(doc.items, percentage), [doc.items, percentage]);
  return (
    <Dialog label="Facture d’acompte">
      <form action={formAction} className="form">
        <strong>Facture d’acompte sur le devis {doc.number}</strong>
        <Field
          id="deposit-percentage"
          label="Pourcentage du devis"
          hint="La part du devis que le client règle d’avance, par exemple 30 : elle sera déduite de la facture finale. Elle est calculée sur chaque taux de TVA du devis."
          error={state.errors?.percentage}
        >
          <QuantityInput name="percentage" style={{ maxWidth: 160 }} value={percentage} onChange={(e) => setPercentage(e.target.value)} />
        </Field>
        {preview && (
          <p data-testid="deposit-preview">
            Acompte de {formatMoney(preview.total_ht)} HT, TVA {formatMoney(preview.total_tva)}, soit <strong>{formatMoney(preview.total_ttc)} TTC</strong>
            {preview.groups.length > 1 && <span className="muted"> ({preview.groups.map((g) => `${formatMoney(g.amount)} à ${formatRate(g.vat_rate)}`).join(', ')})</span>}.
          </p>
        )}
        <FormErrors state={state} placed={['percentage']} />
        <div className="form-actions">
          <SubmitButton>Créer la facture d’acompte</SubmitButton>
          <Button variant="ghost" onClick={onClose}>
            Retour
          </Button>
        </div>
        <p className="muted">Elle est créée en brouillon, payable à réception ; finalisez-la pour l’émettre.</p>
      </form>
    </Dialog>
  );
}

function ConvertPanel({ id, action, onClose }: { id: string; action: DocumentActionSet['convert']; onClose: () => void }) {
  const [preview, setPreview] = useState<BillingDocument | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, startLoading] = useTransition();
  const [state, formAction] = useActionState(action, initialFormState);
  // The dry run is asked for once, when the panel opens: the server answers the invoice it would create.
  useEffect(() => {
    startLoading(async () => {
      const answer = await convertPreviewAction(id);
      if (isRefusal(answer)) setError(answer.error ?? 'La conversion est impossible.');
      else setPreview(answer);
    });
  }, [id]);
  return (
    <Dialog label="Convertir en facture">
      <strong>Facture issue du devis</strong>
      {loading && <p className="muted">Calcul de la facture…</p>}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      {preview && (
        <div data-testid="convert-preview">
          <p className="muted">Aperçu : rien n’est encore créé. Les acomptes déjà facturés sur le devis sont déduits.</p>
          <ItemsTable items={preview.items ?? []} />
          <dl className="totals">
            <dt>Total HT</dt>
            <dd>{formatMoney(preview.total_ht)}</dd>
            <dt>Total TVA</dt>
            <dd>{formatMoney(preview.total_tva)}</dd>
            <dt className="grand">Total TTC à facturer</dt>
            <dd className="grand" data-testid="convert-total-ttc">
              {formatMoney(preview.total_ttc)}
            </dd>
          </dl>
          <FormErrors state={state} />
          <form action={formAction} className="form-actions">
            <SubmitButton>Créer la facture</SubmitButton>
            <Button variant="ghost" onClick={onClose}>
              Retour
            </Button>
          </form>
        </div>
      )}
    </Dialog>
  );
}

function CreditNotePanel({ doc, action, onClose }: { doc: Props['doc']; action: DocumentActionSet['creditNote']; onClose: () => void }) {
  const [reason, setReason] = useState<keyof typeof CREDIT_REASON_LABELS>('billing_error');
  const [text, setText] = useState('');
  const [partial, setPartial] = useState(false);
  // What each line of the invoice credits: a quantity for a product line, euros for a discount.
  const [amounts, setAmounts] = useState<string[]>(() => doc.items.map(() => ''));
  const [state, dispatch, pending] = useActionState(action, initialFormState);

  const built = useMemo(() => {
    const sent: number[] = [];
    const items: Array<Record<string, unknown>> = [];
    const lines: TotalsLine[] = [];
    doc.items.forEach((it, i) => {
      const typed = amounts[i]?.trim() ?? '';
      if (!typed) return;
      sent.push(i);
      const common = { description: it.description, details: it.details, unit: it.unit, vat_rate: it.vat_rate, vat_category: it.vat_category };
      if (it.kind === 'discount') {
        const cents = eurosToCents(typed);
        items.push({ ...common, kind: 'discount', unit_price: cents ?? typed });
        if (cents !== null) lines.push({ kind: 'discount', quantity: '-1', unit_price: cents, vat_rate: it.vat_rate, vat_category: it.vat_category });
      } else {
        const quantity = quantityText(typed);
        items.push({ ...common, kind: 'product', quantity, unit_price: it.unit_price });
        if (/^\d+(\.\d{1,4})?$/.test(quantity) && new Dec(quantity).gt(0)) {
          lines.push({ kind: 'product', quantity, unit_price: it.unit_price, vat_rate: it.vat_rate, vat_category: it.vat_category });
        }
      }
    });
    let totals: ReturnType<typeof computeTotals> | null = null;
    try {
      totals = computeTotals(lines);
    } catch (err) {
      if (!(err instanceof AmountOverflowError)) throw err;
    }
    return { sent, items, totals };
  }, [doc.items, amounts]);

  // The server names lines by their index in what was sent; each is shown under the invoice line it came from.
  const errorOfLine = (invoiceIndex: number) => {
    const j = built.sent.indexOf(invoiceIndex);
    if (j < 0 || !state.errors) return undefined;
    return Object.entries(state.errors).find(([k]) => k.startsWith(`items.${j}.`))?.[1];
  };
  const placedError = Object.keys(state.errors ?? {}).some((k) => /^items\.\d+\./.test(k));

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const body = { credit_reason_code: reason, credit_reason_text: text.trim() || null, ...(partial ? { items: built.items } : {}) };
    startTransition(() => dispatch(body));
  };

  return (
    <Dialog label="Établir un avoir">
      <form className="form" onSubmit={submit}>
        <strong>Avoir sur {doc.number}</strong>
        <div className="grid-2">
          <Field id="credit-reason" label="Motif" error={state.errors?.credit_reason_code}>
            <Select value={reason} onChange={(e) => setReason(e.target.value as typeof reason)}>
              {Object.entries(CREDIT_REASON_LABELS).map(([v, label]) => (
                <option key={v} value={v}>
                  {label}
                </option>
              ))}
            </Select>
          </Field>
          <Field id="credit-text" label="Précision (imprimée)" error={state.errors?.credit_reason_text}>
            <Input value={text} onChange={(e) => setText(e.target.value)} />
          </Field>
        </div>
        <fieldset className="checks" style={{ gridTemplateColumns: '1fr' }}>
          <legend className="sr-only">Étendue de l’avoir</legend>
          <label>
            <input type="radio" name="credit-scope" checked={!partial} onChange={() => setPartial(false)} /> Avoir total ({formatMoney(doc.total_ttc)} TTC)
          </label>
          <label>
            <input type="radio" name="credit-scope" checked={partial} onChange={() => setPartial(true)} /> Avoir partiel
          </label>
        </fieldset>
        {partial && (
          <>
            <DataTable
              label="Lignes à créditer"
              columns={[
                {
                  key: 'line',
                  header: 'Ligne de la facture',
                  cell: (it) => (
                    <>
                      {it.description} <span className="muted">· TVA {formatRate(it.vat_rate)}</span>
                    </>
                  ),
                },
                {
                  key: 'billed',
                  header: 'Facturé',
                  num: true,
                  cell: (it) => (it.kind === 'discount' ? `remise de ${formatMoney(it.unit_price)}` : `${formatDecimalAsTyped(it.quantity)} × ${formatMoney(it.unit_price)}`),
                },
                {
                  key: 'credit',
                  header: 'À créditer',
                  num: true,
                  cell: (it, i) => {
                    const change = (value: string) => setAmounts((a) => a.map((v, j) => (j === i ? value : v)));
                    return (
                      <Field id={`credit-line-${i}`} error={errorOfLine(i)}>
                        {it.kind === 'discount' ? (
                          <MoneyInput className="num" aria-label={`Remise à reprendre, ligne ${i + 1} (€)`} placeholder="0" value={amounts[i] ?? ''} onChange={(e) => change(e.target.value)} />
                        ) : (
                          <QuantityInput className="num" aria-label={`Quantité à créditer, ligne ${i + 1}`} placeholder="0" value={amounts[i] ?? ''} onChange={(e) => change(e.target.value)} />
                        )}
                      </Field>
                    );
                  },
                },
              ]}
              rows={doc.items}
              rowKey={(it) => it.id}
            />
            {built.totals && (
              <p data-testid="credit-preview">
                Avoir de {formatMoney(built.totals.total_ht)} HT, soit <strong>{formatMoney(built.totals.total_ttc)} TTC</strong>.
              </p>
            )}
          </>
        )}
        {state.error && !placedError && !state.errors?.credit_reason_code && (
          <p className="form-error" role="alert">
            {state.error}
          </p>
        )}
        {state.errors?.items && (
          <p className="form-error" role="alert">
            {state.errors.items}
          </p>
        )}
        <div className="form-actions">
          <SubmitButton pending={pending}>Créer l’avoir</SubmitButton>
          <Button variant="ghost" onClick={onClose}>
            Retour
          </Button>
        </div>
        <p className="muted">L’avoir est créé en brouillon : vérifiez-le puis finalisez-le pour l’émettre. Une facture n’a qu’un avoir.</p>
      </form>
    </Dialog>
  );
}
