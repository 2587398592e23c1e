'use client';

import { type ButtonHTMLAttributes, createContext, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes, useContext, useEffect, useRef } from 'react';
import { useFormStatus } from 'react-dom';
import type { FormState } from '@/lib/platform/next';
import { frenchFieldLine } from '@/lib/platform/i18n';
import { type ButtonLook, buttonClass } from './button';

/*
 * The back-office's form primitives: a field (label, control, hint, error, wired for assistive technologies), the
 * controls that read its wiring, money and quantity inputs, the submit button and the refusal above a form.
 * Styles are globals.css's .field, .hint, .field-error, .form-error.
 */

interface Wiring {
  id: string;
  invalid: boolean;
  describedBy: string | undefined;
}

const FieldWiring = createContext<Wiring | null>(null);

/** The id, aria-invalid and aria-describedby of the control of the enclosing Field (nothing outside one). */
export function useFieldControl() {
  const wiring = useContext(FieldWiring);
  if (!wiring) return {};
  return { id: wiring.id, 'aria-invalid': wiring.invalid || undefined, 'aria-describedby': wiring.describedBy };
}

interface FieldProps {
  /** The control's id: the label points at it, the hint and the error are `${id}-hint` and `${id}-error`. */
  id: string;
  /** Omitted for a control named by its own aria-label (a cell of the lines table). */
  label?: ReactNode;
  hint?: ReactNode;
  error?: string;
  children: ReactNode;
  className?: string;
  style?: React.CSSProperties;
}

/** A label, its control (children), a hint and the field's error, the control described by both. */
export function Field({ id, label, hint, error, children, className = 'field', style }: FieldProps) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={className} style={style} data-invalid={Boolean(error)}>
      {label !== undefined && <label htmlFor={id}>{label}</label>}
      <FieldWiring.Provider value={{ id, invalid: Boolean(error), describedBy }}>{children}</FieldWiring.Provider>
      {hint && (
        <span className="hint" id={hintId}>
          {hint}
        </span>
      )}
      <FieldError id={errorId} message={error} />
    </div>
  );
}

/** A field's error message, or nothing. */
export function FieldError({ id, message }: { id?: string; message?: string }) {
  if (!message) return null;
  return (
    <span className="field-error" id={id}>
      {message}
    </span>
  );
}

/** A checkbox with its label beside it, a hint and an error. */
export function CheckboxField({ id, label, hint, error, ...input }: { id: string; label: ReactNode; hint?: ReactNode; error?: string } & InputHTMLAttributes<HTMLInputElement>) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div className="field" data-invalid={Boolean(error)}>
      <label>
        <input
          {...input}
          id={id}
          type="checkbox"
          aria-invalid={error ? true : undefined}
          aria-describedby={[hintId, errorId].filter(Boolean).join(' ') || undefined}
        />{' '}
        {label}
      </label>
      {hint && (
        <span className="hint" id={hintId}>
          {hint}
        </span>
      )}
      <FieldError id={errorId} message={error} />
    </div>
  );
}

export function Input(props: InputHTMLAttributes<HTMLInputElement>) {
  return <input type="text" {...useFieldControl()} {...props} />;
}

export function TextArea(props: TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return <textarea {...useFieldControl()} {...props} />;
}

export function Select(props: SelectHTMLAttributes<HTMLSelectElement>) {
  return <select {...useFieldControl()} {...props} />;
}

/**
 * An amount in euros as typed: "1 200,50", "49.90" or "40 €" (the server reads it with lib/platform/money's parseEuros,
 * French comma and spaces included). Text, not type=number: a number input refuses the comma in some browsers.
 */
export function MoneyInput(props: Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'inputMode'>) {
  return <Input inputMode="decimal" autoComplete="off" {...props} />;
}

/** A decimal quantity or percentage as typed ("2,5"), read with a comma or a point. */
export function QuantityInput(props: Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'inputMode'>) {
  return <Input inputMode="decimal" autoComplete="off" {...props} />;
}

interface SubmitProps extends ButtonLook, Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type' | 'disabled' | 'className'> {
  children: ReactNode;
  /** Shown while the form is submitted ("Enregistrement…"); the label stays otherwise. */
  pendingLabel?: ReactNode;
  /** For a form submitted by hand (onSubmit + startTransition), which useFormStatus does not see. */
  pending?: boolean;
}

/** The form's submit button (primary unless told), disabled while its form is submitted (useFormStatus). */
export function SubmitButton({ children, pendingLabel, pending, variant = 'primary', small, className, ...button }: SubmitProps) {
  const status = useFormStatus();
  const busy = pending || status.pending;
  return (
    <button {...button} className={buttonClass({ variant, small, className })} type="submit" disabled={busy}>
      {busy && pendingLabel ? pendingLabel : children}
    </button>
  );
}

interface FormErrorsProps {
  state: Pick<FormState<unknown>, 'error' | 'errors'>;
  /** "Le contact n’a pas été enregistré : corrigez les champs signalés.": the banner's first line. */
  summary?: string;
  /** The fields the form shows errors beside (a field's items too: "tags" places "tags.2"), or a test. */
  placed?: readonly string[] | ((key: string) => boolean);
}

/**
 * Above the form, what is not shown beside a field: the service's message when no field holds it, and the
 * schema's errors on fields the form has no input for (« Libellé : message », the field's French label; a `_form`
 * error alone).
 */
export function FormErrors({ state, summary, placed = [] }: FormErrorsProps) {
  const isPlaced = typeof placed === 'function' ? placed : (key: string) => placed.some((f) => key === f || key.startsWith(`${f}.`));
  const errors = Object.entries(state.errors ?? {});
  const lines = state.error
    ? errors.some(([key]) => isPlaced(key))
      ? []
      : [state.error]
    : errors.filter(([key]) => !isPlaced(key)).map(([key, message]) => frenchFieldLine(key, message));
  if (summary) {
    if (!state.error && errors.length === 0) return null;
    return (
      <div className="form-error" role="alert">
        {summary}
        {lines.map((line) => (
          <div key={line}>{line}</div>
        ))}
      </div>
    );
  }
  return lines.map((line) => (
    <p className="form-error" role="alert" key={line}>
      {line}
    </p>
  ));
}

interface FormActionsProps {
  state: Pick<FormState<unknown>, 'attempt' | 'error' | 'errors' | 'done'>;
  /** Said beside the buttons when fields were refused ("Le contact n’a pas été enregistré : corrigez les champs signalés."). */
  refused: string;
  /** The fields the form shows errors beside, as FormErrors: the others are listed under the message. */
  placed?: FormErrorsProps['placed'];
  children: ReactNode;
}

/**
 * The form's buttons and, beside them, what became of the last submission — where the person who clicked is looking,
 * at the bottom of a long form: its confirmation (`done`), or its refusal (the service's message, or `refused` and the
 * errors of fields the form has no input for). After a refusal the first field in error takes the focus and is
 * scrolled to (on mount — most forms remount after each attempt — and whenever `attempt` changes). Replaces
 * FormErrors above the form.
 */
export function FormActions({ state, refused, placed = [], children }: FormActionsProps) {
  const ref = useRef<HTMLDivElement>(null);
  const errors = Object.entries(state.errors ?? {});
  const failed = Boolean(state.error) || errors.length > 0;
  // Keyed on the attempt too: a form that keeps its state between attempts (a controlled editor) focuses again.
  const attempt = state.attempt;
  useEffect(() => {
    if (!failed || attempt === undefined) return;
    const first = ref.current?.closest('form')?.querySelector<HTMLElement>('[aria-invalid="true"]');
    if (!first) return;
    first.focus({ preventScroll: true });
    first.scrollIntoView({ block: 'center' });
  }, [failed, attempt]);
  const isPlaced = typeof placed === 'function' ? placed : (key: string) => placed.some((f) => key === f || key.startsWith(`${f}.`));
  const unplaced = errors.filter(([key]) => !isPlaced(key)).map(([key, message]) => frenchFieldLine(key, message));
  return (
    <div className="form-actions" ref={ref}>
      {children}
      {failed && (
        <div className="form-feedback form-error" role="alert">
          {errors.length > 0 ? refused : state.error}
          {unplaced.map((line) => (
            <div key={line}>{line}</div>
          ))}
        </div>
      )}
      {!failed && state.done && (
        <p className="form-feedback form-done" role="status">
          {state.done}
        </p>
      )}
    </div>
  );
}

/** A one-button form's outcome on its line: the confirmation (`done`) or the refusal (`error`), or nothing. */
export function InlineOutcome({ state }: { state: Pick<FormState<unknown>, 'done' | 'error'> }) {
  return (
    <>
      {state.done && (
        <span className="muted" role="status">
          {' '}
          {state.done}
        </span>
      )}
      {state.error && (
        <span className="form-error" role="alert">
          {' '}
          {state.error}
        </span>
      )}
    </>
  );
}
