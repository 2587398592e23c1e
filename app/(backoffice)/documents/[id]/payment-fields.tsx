import { Field, FormErrors, Input, MoneyInput, Select } from '@/components/ui';
import type { FormState } from '@/lib/platform/next';
import { PAYMENT_METHOD_LABELS } from '../labels';

interface Props {
  state: FormState;
  /** Prefixes the fields' ids: the payment and the refund forms can stand on one page. */
  idPrefix: 'payment' | 'refund';
  labels: { amount: string; paidAt: string; method: string };
  amountHint: string;
  amountDefault: string;
  today: string;
  /** The methods offered (all by default): an offline refund is by transfer, cheque or cash. */
  methods?: Array<keyof typeof PAYMENT_METHOD_LABELS>;
}

/** The fields a payment and a refund share (amount, date, method, reference) and their errors, as lib/domain/payments reads them. */
export function PaymentFields({ state, idPrefix, labels, amountHint, amountDefault, today, methods }: Props) {
  const error = (key: string) => state.errors?.[key];
  return (
    <>
      <FormErrors state={state} placed={['amount', 'paid_at', 'method', 'reference']} />
      <div className="grid-2">
        <Field id={`${idPrefix}-amount`} label={labels.amount} hint={amountHint} error={error('amount')}>
          <MoneyInput name="amount" defaultValue={amountDefault} />
        </Field>
        <Field id={`${idPrefix}-paid_at`} label={labels.paidAt} error={error('paid_at')}>
          <Input name="paid_at" type="date" max={today} defaultValue={today} />
        </Field>
        <Field id={`${idPrefix}-method`} label={labels.method} error={error('method')}>
          <Select name="method" defaultValue="bank_transfer">
            {(methods ?? (Object.keys(PAYMENT_METHOD_LABELS) as Array<keyof typeof PAYMENT_METHOD_LABELS>)).map((v) => (
              <option key={v} value={v}>
                {PAYMENT_METHOD_LABELS[v]}
              </option>
            ))}
          </Select>
        </Field>
        <Field id={`${idPrefix}-reference`} label="Référence" error={error('reference')}>
          <Input name="reference" placeholder="Référence du virement, n° de chèque…" />
        </Field>
      </div>
    </>
  );
}
