'use client';

import { useActionState } from 'react';
import { Field, FormErrors, Select, SubmitButton, TextArea } from '@/components/ui';
import { type FormState, initialFormState } from '@/lib/platform/next/client';
import { REFUSAL_REASON_LABELS } from '../labels';

type Action = (prev: FormState, form: FormData) => Promise<FormState>;

interface Props {
  accept: Action;
  refuse: Action;
  dispute: Action;
  /** Approve and refuse are offered until one of them is sent; dispute only while nothing is. */
  canDecide: boolean;
  canDispute: boolean;
}

/** Approve (205), refuse (210, a reason from the list) or dispute (207, a reason): each sent to the PA. */
export function AnswerForms({ accept, refuse, dispute, canDecide, canDispute }: Props) {
  const [accepted, acceptAction] = useActionState(accept, initialFormState);
  const [refused, refuseAction] = useActionState(refuse, initialFormState);
  const [disputed, disputeAction] = useActionState(dispute, initialFormState);
  const done = accepted.done ?? refused.done ?? disputed.done;

  return (
    <div className="stack">
      {done && (
        <div className="notice notice-success" role="status">
          {done}
        </div>
      )}
      {canDecide && (
        <form action={acceptAction} key={`a${accepted.attempt}`}>
          <FormErrors state={accepted} summary="La facture n’a pas été approuvée." />
          <SubmitButton pendingLabel="Envoi…">Approuver</SubmitButton>
        </form>
      )}
      {canDecide && (
        <form className="form" action={refuseAction} key={`r${refused.attempt}`} noValidate>
          <h3>Refuser</h3>
          <FormErrors state={refused} summary="La facture n’a pas été refusée : corrigez les champs signalés." placed={['reason_code', 'reason']} />
          <Field id="refuse-reason_code" label="Motif du refus" error={refused.errors?.reason_code}>
            <Select name="reason_code" defaultValue={refused.texts?.reason_code ?? ''}>
              <option value="">Choisissez un motif</option>
              {Object.entries(REFUSAL_REASON_LABELS).map(([code, label]) => (
                <option key={code} value={code}>
                  {label}
                </option>
              ))}
            </Select>
          </Field>
          <Field id="refuse-reason" label="Précisions (facultatif)" error={refused.errors?.reason}>
            <TextArea name="reason" rows={2} defaultValue={refused.texts?.reason} />
          </Field>
          <SubmitButton variant="danger" pendingLabel="Envoi…">
            Refuser la facture
          </SubmitButton>
        </form>
      )}
      {canDispute && (
        <form className="form" action={disputeAction} key={`d${disputed.attempt}`} noValidate>
          <h3>Contester</h3>
          <FormErrors state={disputed} summary="La facture n’a pas été contestée : corrigez les champs signalés." placed={['reason']} />
          <Field id="dispute-reason" label="Ce qui est contesté" error={disputed.errors?.reason}>
            <TextArea name="reason" rows={2} defaultValue={disputed.texts?.reason} />
          </Field>
          <SubmitButton variant="plain" pendingLabel="Envoi…">
            Mettre en litige
          </SubmitButton>
        </form>
      )}
    </div>
  );
}
