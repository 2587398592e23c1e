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
  /** What the signer sent for it, if anything (the latest upload). */
  upload?: { name: string } | null;
  uploads?: Array<{ name: string }>;
  uploaded?: boolean;
}

export interface SignState {
  envelope: { id: string; status: string; subject: string | null; message: string | null; sender_name: string | null; page_count: number };
  signer: {
    id: string;
    email: string;
    full_name: string | null;
    status: 'waiting' | 'notified' | 'opened' | 'signed' | 'declined';
    verification_method: 'email_otp' | 'sms_otp' | 'none';
    verified: boolean;
    consent_given_at: string | null;
    signed_at: string | null;
  };
  fields: SignField[];
  requested_documents: RequestedDocument[];
  consent_text: string;
  consent_text_version: string;
}

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
  state: (token: string) => call<SignState>(token, ''),
  consent: (token: string) => call<SignState>(token, '/consent', json({})),
  sendCode: (token: string) => call<unknown>(token, '/code', json({})),
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

/** Whether a requested document has its file, whichever way the state says it. */
export const uploadedName = (doc: RequestedDocument): string | null | undefined =>
  doc.upload?.name ?? doc.uploads?.at(-1)?.name ?? (doc.uploaded ? null : undefined);

/** Fields filled by the signature itself rather than typed in. */
export const isSignatureField = (field: SignField) => field.type === 'signature' || field.type === 'initials';
