import { frenchFieldLine } from '@/lib/platform/i18n';

/*
 * What the back-office's server actions answer (lib/platform/next/action.ts builds them, in French). Client components read
 * these shapes and call isRefusal/refusalMessage in the browser: the one import is the catalogue, pure as well.
 */

/** Why an action did not do what it was asked: one message for above the form, and messages by field. */
export interface Refusal {
  refused: true;
  /** The service's message (a 404, 409 or 422 of the API); absent for a refusal of the schema alone. */
  error?: string;
  /** By dotted field path ("items.2.vat_rate"; "_form" for the whole form), without the path's prefix. */
  errors?: Record<string, string>;
}

/**
 * The one state of a back-office form (useActionState). `attempt` is bumped by every answer: a form keyed on it
 * remounts, showing `texts` (what was typed) after a refusal, since React resets a submitted form.
 */
export interface FormState<T = never> {
  attempt: number;
  error?: string;
  errors?: Record<string, string>;
  texts?: Record<string, string>;
  /** A confirmation to show ("Paiement enregistré."). */
  done?: string;
  /** What the action hands back besides (a new API key). */
  data?: T;
}

export const initialFormState: FormState = { attempt: 0 };

export const isRefusal = (answer: unknown): answer is Refusal =>
  typeof answer === 'object' && answer !== null && (answer as { refused?: unknown }).refused === true;

/**
 * A refusal in one line: « Contacts à fusionner n° 2 : cette valeur figure deux fois. » for a field (its French
 * label, lib/platform/i18n), the message alone otherwise. For places that show one message and no fields (a dialog, a wizard).
 */
export function refusalMessage(refusal: Pick<Refusal, 'error' | 'errors'>): string {
  const [first] = Object.entries(refusal.errors ?? {});
  if (first) return frenchFieldLine(first[0], first[1]);
  return refusal.error ?? '';
}

/**
 * A form action as a client component receives it: already bound, on the server, to what it acts on. Binding in a
 * client component (`action.bind(null, id)` inside render) makes React's no-JavaScript postback suspend on a new
 * promise at every render and never answer (vercel/next.js#57867); app/client-bound-actions.test.ts forbids it.
 */
export type BoundFormAction<T = never, Payload = FormData> = (state: FormState<T>, payload: Payload) => Promise<FormState<T>>;
