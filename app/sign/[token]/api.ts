/*
 * The signer's page is a client of the public `/api/sign/<token>/…` endpoints (DESIGN §12), the same ones embedded
 * integrations use: nothing here talks to the database. Every answer is the signer's state, or an error
 * `{code, message, field}`.
 */

export type FieldType = 'signature' | 'initials' | 'date' | 'text' | 'checkbox' | 'name' | 'email';

export interface SignField {
  id: string;
  signer_id?: string;
  type: FieldType;
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
  required: boolean;
  label: string | null;
  value: string | null;
}

export interface RequestedDocument {
  id: string;
  label: string;
  description: string | null;
  required: boolean;
  /** What the signer sent for it, oldest first. */
  uploads: Array<{ id: string; name: string }>;
}

/** What happened once the signer signed or declined (the API's `outcome`, lib/domain/signature signer-outcome.ts). */
export type SignOutcome =
  | { kind: 'signed'; remaining: number }
  | { kind: 'completed'; document: 'ready' | 'sealing' | 'delayed' | 'proof_only' | 'closed'; download_until: string | null }
  | { kind: 'declined'; by_you: boolean }
  | { kind: 'expired' }
  | { kind: 'cancelled' }
  | { kind: 'replaced' };

export interface SignState {
  envelope: { id: string; status: string; subject: string | null; message: string | null; sender_name: string | null; page_count: number | null };
  signer: {
    id: string;
    email: string;
    full_name: string | null;
    status: 'waiting' | 'notified' | 'opened' | 'signed' | 'declined';
    verification_method: 'email_otp' | 'sms_otp' | 'none';
    verified: boolean;
    locked: boolean;
    consent_given_at: string | null;
    signed_at: string | null;
    your_turn: boolean;
  };
  fields: SignField[];
  requested_documents: RequestedDocument[];
  /** In the language asked (?lang), and both languages of the same version for switching without asking again. */
  consent_text: string | null;
  consent_texts: { fr: string; en: string } | null;
  consent_text_version: string;
  /** Null while the signer has something to do. */
  outcome: SignOutcome | null;
}

/** `POST …/code` answers the state with where the code went. */
export type CodeSent = SignState & { code: { channel: 'email' | 'sms'; sent_to: string; expires_at: string } };

/** A refusal of the API, or `network` when no answer came. */
export class SignError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field: string | null = null,
  ) {
    super(message);
  }
}

export const apiBase = (token: string) => `/api/sign/${encodeURIComponent(token)}`;

async function call<T>(token: string, path: string, init: RequestInit = {}): Promise<T> {
  let res: Response;
  try {
    res = await fetch(`${apiBase(token)}${path}`, { cache: 'no-store', credentials: 'omit', ...init });
  } catch {
    throw new SignError(0, 'network', 'network error');
  }
  const body = (await res.json().catch(() => null)) as (T & { code?: string; message?: string; field?: string | null }) | null;
  if (!res.ok) throw new SignError(res.status, body?.code ?? 'unknown', body?.message ?? res.statusText, body?.field ?? null);
  return body as T;
}

const json = (body: unknown): RequestInit => ({ method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

export const signApi = {
  state: (token: string, lang: string) => call<SignState>(token, `?lang=${lang}`),
  consent: (token: string) => call<SignState>(token, '/consent', json({})),
  sendCode: (token: string) => call<CodeSent>(token, '/code', json({})),
  verifyCode: (token: string, code: string) => call<SignState>(token, '/code/verify', json({ code })),
  fillField: (token: string, fieldId: string, value: string) =>
    call<SignState>(token, `/fields/${encodeURIComponent(fieldId)}`, { ...json({ value }), method: 'PUT' }),
  upload: (token: string, requestedDocumentId: string, file: File) => {
    const form = new FormData();
    form.set('requested_document_id', requestedDocumentId);
    form.set('file', file);
    return call<SignState>(token, '/uploads', { method: 'POST', body: form });
  },
  sign: (token: string, signature: { kind: 'typed' | 'drawn'; value: string }) => call<SignState>(token, '/sign', json({ signature })),
  decline: (token: string, reason: string) => call<SignState>(token, '/decline', json({ reason })),
};

/** The name of the file last sent for a requested document, or null before any. */
export const uploadedName = (doc: RequestedDocument): string | null => doc.uploads.at(-1)?.name ?? null;

/** The signature field is stamped by signing itself; every other field is typed or ticked. */
export const isSignatureField = (field: SignField) => field.type === 'signature';
