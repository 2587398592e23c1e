import { parisEndOfDay, todayParis } from '@/lib/platform/dates/client';
import type { VerificationMethod } from './labels';

/*
 * The envelope editor's form, as typed, and the body of POST /v1/signature/envelopes it becomes (lib/domain/signature's
 * EnvelopeCreate parses it on the server, whose French messages come back beside their field). Browser-safe.
 */

export interface SignerDraft {
  /** React's key: stable while rows are added and removed. */
  key: string;
  full_name: string;
  email: string;
  phone: string;
  verification_method: VerificationMethod;
  routing_order: string;
}

export interface EnvelopeForm {
  source_kind: 'document' | 'devis' | 'facture';
  /** The finalized quote or invoice picked (devis/facture); an upload gets its id on the server. */
  source_document_id: string;
  template_id: string;
  subject: string;
  message: string;
  /** Comma-separated, as typed. */
  labels: string;
  /** Addresses separated by commas, spaces or lines. */
  cc_recipients: string;
  /** YYYY-MM-DD: the envelope expires at the end of that day in Paris. */
  expires_on: string;
  routing_mode: 'sequential' | 'parallel';
  assurance_level: 'simple' | 'advanced';
  reminder_interval_hours: string;
  reminder_max_count: string;
  signers: SignerDraft[];
}

// Random, not a counter: the first row is made on the server, the next ones in the browser.
export const newSigner = (order = 1): SignerDraft => ({
  key: `s${Math.random().toString(36).slice(2)}`,
  full_name: '',
  email: '',
  phone: '',
  verification_method: 'email_otp',
  routing_order: String(order),
});

export function newEnvelopeForm(preset: Partial<EnvelopeForm> = {}): EnvelopeForm {
  return {
    source_kind: 'document',
    source_document_id: '',
    template_id: '',
    subject: '',
    message: '',
    labels: '',
    cc_recipients: '',
    expires_on: '',
    routing_mode: 'sequential',
    assurance_level: 'simple',
    reminder_interval_hours: '',
    reminder_max_count: '1',
    signers: [newSigner(1)],
    ...preset,
  };
}

const blankToNull = (s: string) => (s.trim() === '' ? null : s.trim());
const splitList = (s: string, by: RegExp) =>
  s
    .split(by)
    .map((x) => x.trim())
    .filter(Boolean);

/** The last instant of a Paris calendar day, as an RFC 3339 UTC timestamp (whatever the browser's zone). */
export { parisEndOfDay };

/** An integer typed, or what was typed when it is not one (the schema then refuses it with its message). */
const integer = (s: string): number | string | null => {
  const t = s.trim();
  if (t === '') return null;
  return /^-?\d+$/.test(t) ? Number(t) : t;
};

/**
 * The body of POST /v1/signature/envelopes, and the errors found before the server (none of the server's rules is
 * repeated: only what cannot be sent, such as a missing file or quote).
 */
export function toEnvelopePayload(form: EnvelopeForm, opts: { hasFile: boolean }): { payload: Record<string, unknown>; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  if (form.source_kind === 'document' && !opts.hasFile) errors.file = 'required (a PDF file)';
  if (form.source_kind !== 'document' && !form.source_document_id) errors.source_document_id = 'required';
  const payload: Record<string, unknown> = {
    source_kind: form.source_kind,
    ...(form.source_kind === 'document' ? {} : { source_document_id: form.source_document_id }),
    routing_mode: form.routing_mode,
    assurance_level: form.assurance_level,
    ...(form.template_id ? { template_id: form.template_id } : {}),
    subject: blankToNull(form.subject),
    message: blankToNull(form.message),
    expires_at: form.expires_on ? parisEndOfDay(form.expires_on) : null,
    reminder_interval_hours: integer(form.reminder_interval_hours),
    reminder_max_count: integer(form.reminder_max_count),
    signers: form.signers.map((s) => ({
      email: s.email.trim(),
      full_name: blankToNull(s.full_name),
      phone: blankToNull(s.phone),
      verification_method: s.verification_method,
      routing_order: form.routing_mode === 'parallel' ? 0 : (integer(s.routing_order) ?? 0),
    })),
  };
  // Left out with a template, so that its presets fill them (lib/domain/signature: omitted → preset).
  const labels = splitList(form.labels, /,/);
  const cc = splitList(form.cc_recipients, /[\s,;]+/);
  if (labels.length || !form.template_id) payload.labels = labels;
  if (cc.length || !form.template_id) payload.cc_recipients = cc;
  if (!payload.subject && form.template_id) delete payload.subject;
  if (!payload.message && form.template_id) delete payload.message;
  return { payload, errors };
}

/** A field placed on a page, in fractions of the page (origin top-left), as PUT …/fields takes it. */
export interface PlacedField {
  key: string;
  signer_id: string;
  type: import('./labels').FieldType;
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
  required: boolean;
  label: string;
}

/** Keeps a box inside its page: a drop near an edge moves the box in rather than out. */
export function clampBox(f: Pick<PlacedField, 'x' | 'y' | 'width' | 'height'>) {
  const round = (v: number) => Math.round(v * 10_000) / 10_000;
  const width = Math.min(Math.max(f.width, 0.01), 1);
  const height = Math.min(Math.max(f.height, 0.01), 1);
  return { x: round(Math.min(Math.max(f.x, 0), 1 - width)), y: round(Math.min(Math.max(f.y, 0), 1 - height)), width: round(width), height: round(height) };
}

/** The body of PUT …/fields. */
export const toFieldsPayload = (fields: PlacedField[]) => ({
  fields: fields.map(({ key: _key, label, ...f }) => ({ ...f, label: blankToNull(label) })),
});

const parisDay = (iso: string) => todayParis(new Date(iso));

/** A draft as the editor shows it again (the source, routing and level stay: PATCH does not change them). */
export function formFromEnvelope(e: {
  source_kind: EnvelopeForm['source_kind'];
  routing_mode: EnvelopeForm['routing_mode'];
  assurance_level: EnvelopeForm['assurance_level'];
  subject: string | null;
  message: string | null;
  labels: string[];
  cc_recipients: string[];
  expires_at: string | null;
  reminder_interval_hours: number | null;
  reminder_max_count: number;
  signers: Array<{ full_name: string | null; email: string; phone: string | null; verification_method: VerificationMethod; routing_order: number }>;
}): EnvelopeForm {
  return newEnvelopeForm({
    source_kind: e.source_kind,
    routing_mode: e.routing_mode,
    assurance_level: e.assurance_level,
    subject: e.subject ?? '',
    message: e.message ?? '',
    labels: e.labels.join(', '),
    cc_recipients: e.cc_recipients.join(', '),
    expires_on: e.expires_at ? parisDay(e.expires_at) : '',
    reminder_interval_hours: e.reminder_interval_hours === null ? '' : String(e.reminder_interval_hours),
    reminder_max_count: String(e.reminder_max_count),
    signers: e.signers.map((s) => ({
      ...newSigner(s.routing_order),
      full_name: s.full_name ?? '',
      email: s.email,
      phone: s.phone ?? '',
      verification_method: s.verification_method,
    })),
  });
}

/** The body of PATCH …/{id}: what the editor shows, whole (omitted or null clears, per the spec). */
export function toPatchPayload(form: EnvelopeForm): Record<string, unknown> {
  const { payload } = toEnvelopePayload({ ...form, template_id: '' }, { hasFile: true });
  const { source_kind: _s, source_document_id: _d, routing_mode: _r, assurance_level: _a, ...patch } = payload;
  return patch;
}
