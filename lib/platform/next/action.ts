import { notFound, unstable_rethrow } from 'next/navigation';
import { ZodError, z } from 'zod';
import { ApiError, fieldErrors } from '@/lib/platform/errors';
import { frenchRefusal } from '@/lib/platform/i18n';
import { refuseControlCharacters } from '@/lib/platform/http';
import { readsOnly } from '@/lib/platform/orgs';
import type { FormState, Refusal } from './form-state';
import { requestSession, resolveStaffOrg, type StaffContext, type StaffSession } from './staff';

/*
 * The one wrapper of the back-office's server actions, as lib/platform/next/handler.ts is the API's: it resolves the staff
 * member and their active org, reads the input with a zod schema, runs the action, and turns what the services
 * refuse (ApiError 4xx, ZodError, refuse()) into a Refusal, worded in French by lib/platform/i18n's catalogue (the API's
 * answers keep their English). redirect() and notFound() go through; anything else is a bug and is rethrown.
 *
 * Three shapes over that one core:
 * - formAction: a form's action for useActionState, `(…bound, prev, formData) → FormState`;
 * - staffAction: called from a component, `(…args) → result | Refusal`;
 * - buttonAction: a plain `<form action>` (a delete button) with no state to show a refusal in: the page only
 *   offers what can succeed, so a refusal is raised like a bug, to the error page; a target that is not found (a
 *   forged or replayed id, a row deleted meanwhile) is the 404 page.
 */

export type { StaffContext } from './staff';

export interface ActionOptions {
  /** Only an owner or an admin: a member (or an accountant) is refused with this message. */
  adminOnly?: string;
  /**
   * The action changes nothing (a search, a state to poll, a check): a read-only role may run it. Every other action
   * is refused to the read-only « comptable » here, whatever the page shows (docs/security.md « Roles »).
   */
  read?: boolean;
  /** The message when the action's target is gone (a 404 of the service, or an id that is not one). */
  notFound?: string;
  /** List fields whose items' errors ("cc.1") are shown on the list's own input ("cc"). */
  lists?: readonly string[];
}

/** How the input of a form is read: a zod schema over its texts, or a function that parses (and may refuse). */
export type InputReader<Raw, Input> = z.ZodType<Input> | ((raw: Raw, staff: StaffContext) => Input | Promise<Input>);

export interface FormActionOptions<Raw, Input> extends ActionOptions {
  input?: InputReader<Raw, Input>;
}

/** A success of a form action: a confirmation, or data to show. */
export type FormReply<T> = Pick<FormState<T>, 'done' | 'data'>;

/** Several fields refused at once by the action's own checks (before or beside the schema). */
export class FieldsRefused extends Error {
  constructor(readonly errors: Record<string, string>) {
    super(Object.values(errors)[0] ?? 'Refused.');
    this.name = 'FieldsRefused';
  }
}

/** Throws the refusal of the given fields: `refuse({ recovery_fee: 'Montant en euros…' })`. */
export function refuse(errors: Record<string, string>): never {
  throw new FieldsRefused(errors);
}

const Uuid = z.uuid();

/** An id passed to an action by the page (a bound argument): one that is not a UUID names nothing, a 404. */
export function idOf(value: unknown, what = 'Resource'): string {
  const parsed = Uuid.safeParse(value);
  if (!parsed.success) throw new ApiError(404, 'not_found', `${what} not found.`);
  return parsed.data;
}

/** What a form submitted, as texts: what it shows again after a refusal (the first value of each name). */
export function formTexts(form: FormData): Record<string, string> {
  const texts: Record<string, string> = {};
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string' && !(name in texts) && !name.startsWith('$ACTION')) texts[name] = value;
  }
  return texts;
}

function collapse(errors: Record<string, string>, lists: readonly string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, message] of Object.entries(errors)) out[lists.find((list) => key.startsWith(`${list}.`)) ?? key] ??= message;
  return out;
}

/** The refusal an error stands for, or null for a bug. */
export function refusalOf(err: unknown, options: ActionOptions = {}): Refusal | null {
  if (err instanceof ZodError) return { refused: true, errors: collapse(fieldErrors(err), options.lists) };
  // The action's own checks word their refusals in French already (finalization-rules.ts's `fr` among them).
  if (err instanceof FieldsRefused) return { refused: true, errors: collapse(err.errors, options.lists) };
  if (err instanceof ApiError && err.status >= 400 && err.status < 500) {
    const french = frenchRefusal(err);
    const error = err.status === 404 && options.notFound ? options.notFound : french.line;
    return err.field && french.field ? { refused: true, error, errors: collapse({ [err.field]: french.field }, options.lists) } : { refused: true, error };
  }
  return null;
}

type Outcome<Out> = { ok: true; value: Out } | { ok: false; refusal: Refusal; cause: unknown };

async function readInput<Raw, Input>(reader: InputReader<Raw, Input> | undefined, raw: Raw, staff: StaffContext): Promise<Input> {
  // Every form's texts, whichever reader takes them (a function reads the files too: the bulk page, the uploads).
  if (raw instanceof FormData) refuseControlCharacters(formTexts(raw));
  if (!reader) return raw as unknown as Input;
  if (typeof reader === 'function') return reader(raw, staff);
  return reader.parse(raw instanceof FormData ? formTexts(raw) : raw);
}

/** What the read-only role is told when it tries a change (the API's answer says the same in English). */
export const READ_ONLY_REFUSAL = 'Votre accès de comptable est en lecture seule : vous pouvez consulter et télécharger, pas modifier.';
export const readOnlyError = () => new ApiError(403, 'forbidden', 'This account is read-only (accountant): it may read and download, not change anything.');

type ActionKind = 'staffAction' | 'formAction' | 'buttonAction';
/** Every action the wrappers built, with what built it: the test that walks them all runs each under another session. */
const built = new WeakMap<object, { kind: ActionKind; handler: unknown; options: ActionOptions }>();

/** The same action (its handler and options) built over another way to read the session; null for a function the wrappers did not build. */
export function actionUnder(action: unknown, readSession: () => Promise<StaffSession>): ((...args: unknown[]) => Promise<unknown>) | null {
  const entry = typeof action === 'function' ? built.get(action) : undefined;
  if (!entry) return null;
  const wrappers = createActionWrappers(readSession) as unknown as Record<ActionKind, (handler: unknown, options: ActionOptions) => (...args: unknown[]) => Promise<unknown>>;
  return wrappers[entry.kind](entry.handler, entry.options);
}

/** Whether an action was declared a read (`read: true`), which the read-only role may run. */
export const isReadAction = (action: unknown) => (typeof action === 'function' && built.get(action)?.options.read) === true;

/** The wrappers, over a way to read the session: the request's cookie in the app, a given one in tests. */
export function createActionWrappers(readSession: () => Promise<StaffSession>) {
  async function run<Out>(options: ActionOptions, body: (staff: StaffContext) => Promise<Out>): Promise<Outcome<Out>> {
    // Outside the try: the redirects to /login and /no-org are the answer.
    const staff = await resolveStaffOrg(await readSession());
    // The one place a read-only role is refused every change, before any input is read.
    if (readsOnly(staff.role) && !options.read) return { ok: false, refusal: { refused: true, error: READ_ONLY_REFUSAL }, cause: readOnlyError() };
    if (options.adminOnly && staff.role !== 'owner' && staff.role !== 'admin') return { ok: false, refusal: { refused: true, error: options.adminOnly }, cause: null };
    try {
      return { ok: true, value: await body(staff) };
    } catch (err) {
      unstable_rethrow(err);
      const refusal = refusalOf(err, options);
      if (!refusal) throw err;
      return { ok: false, refusal, cause: err };
    }
  }

  function staffAction<Args extends unknown[], Out>(
    handler: (staff: StaffContext, ...args: Args) => Promise<Out>,
    options: ActionOptions = {},
  ): (...args: Args) => Promise<Out | Refusal> {
    const action = async (...args: Args) => {
      const outcome = await run(options, (staff) => handler(staff, ...args));
      return outcome.ok ? outcome.value : outcome.refusal;
    };
    built.set(action, { kind: 'staffAction', handler, options });
    return action;
  }

  type FormHandler<Input, Bound extends unknown[], T> = (staff: StaffContext, input: Input, ...bound: Bound) => Promise<FormReply<T> | undefined>;
  type FormActionFn<Raw, Bound extends unknown[], T> = (...args: [...Bound, FormState<T>, Raw]) => Promise<FormState<T>>;

  // A schema reads the form's texts; a function reads the raw input (a FormData, or what a component passes); with
  // neither, the handler gets the raw input.
  function formAction<Input, Bound extends unknown[] = [], T = never>(
    handler: FormHandler<Input, Bound, T>,
    options: ActionOptions & { input: z.ZodType<Input> },
  ): FormActionFn<FormData, Bound, T>;
  function formAction<Input, Bound extends unknown[] = [], T = never, Raw = FormData>(
    handler: FormHandler<Input, Bound, T>,
    options: ActionOptions & { input: (raw: Raw, staff: StaffContext) => Input | Promise<Input> },
  ): FormActionFn<Raw, Bound, T>;
  function formAction<Raw = FormData, Bound extends unknown[] = [], T = never>(handler: FormHandler<Raw, Bound, T>, options?: ActionOptions): FormActionFn<Raw, Bound, T>;
  function formAction<Input, Bound extends unknown[], T, Raw>(
    handler: FormHandler<Input, Bound, T>,
    options: FormActionOptions<Raw, Input> = {},
  ): FormActionFn<Raw, Bound, T> {
    const action: FormActionFn<Raw, Bound, T> = async (...args) => {
      const raw = args[args.length - 1] as Raw;
      const prev = args[args.length - 2] as FormState<T> | undefined;
      const bound = args.slice(0, -2) as Bound;
      const attempt = (prev?.attempt ?? 0) + 1;
      const outcome = await run(options, async (staff) => handler(staff, await readInput(options.input, raw, staff), ...bound));
      if (outcome.ok) return { attempt, ...outcome.value };
      const { refused: _, ...refusal } = outcome.refusal;
      return { attempt, ...refusal, ...(raw instanceof FormData ? { texts: formTexts(raw) } : {}) };
    };
    built.set(action, { kind: 'formAction', handler, options });
    return action;
  }

  function buttonAction<Input = FormData>(
    handler: (staff: StaffContext, input: Input) => Promise<unknown>,
    options: FormActionOptions<FormData, Input> = {},
  ): (form: FormData) => Promise<void> {
    const action = async (form: FormData) => {
      const outcome = await run(options, async (staff) => handler(staff, await readInput(options.input, form, staff)));
      if (outcome.ok) return;
      if (outcome.cause instanceof ApiError && outcome.cause.status === 404) notFound();
      throw outcome.cause ?? new ApiError(403, 'forbidden', outcome.refusal.error ?? 'Refused.');
    };
    built.set(action, { kind: 'buttonAction', handler, options });
    return action;
  }

  return { staffAction, formAction, buttonAction };
}

export const { staffAction, formAction, buttonAction } = createActionWrappers(requestSession);
