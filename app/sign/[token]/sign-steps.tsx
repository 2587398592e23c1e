'use client';

import { useId, useState } from 'react';
import { isSignatureField, type RequestedDocument, type SignField, type SignState, uploadedName } from './api';
import type { SignTexts } from './texts';
import { Button } from '@/components/ui';

/** What the API takes for each typed field (lib/domain/signature/signing.ts). */
const MAX_LENGTH: Partial<Record<SignField['type'], number>> = { text: 1000, name: 200, initials: 10, email: 254 };

/** An error under the control that caused it, read out when it appears. */
export function ErrorLine({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p className="field-error" role="alert">
      {message}
    </p>
  );
}

export function ConsentStep({ state, text, t, busy, error, onAccept }: {
  state: SignState;
  text: string;
  t: SignTexts;
  busy: boolean;
  error?: string;
  onAccept: () => void;
}) {
  const [checked, setChecked] = useState(false);
  const given = Boolean(state.signer.consent_given_at);
  return (
    <section className="card" aria-labelledby="sign-consent">
      <h2 id="sign-consent">{t.consentHeading}</h2>
      <div className="sign-consent-text">{text}</div>
      <p className="muted">{t.consentVersion(state.consent_text_version)}</p>
      {given ? (
        <p className="notice notice-success">{t.consentGiven}</p>
      ) : (
        <form
          className="stack"
          onSubmit={(e) => {
            e.preventDefault();
            if (checked) onAccept();
          }}
        >
          <label className="sign-check">
            <input type="checkbox" checked={checked} onChange={(e) => setChecked(e.target.checked)} /> {t.consentCheckbox}
          </label>
          <div>
            <Button type="submit" variant="primary" disabled={!checked || busy}>
              {t.consentButton}
            </Button>
          </div>
          <ErrorLine message={error} />
        </form>
      )}
    </section>
  );
}

export function VerifyStep({ state, t, busy, error, sentTo, enabled, onSend, onVerify }: {
  state: SignState;
  t: SignTexts;
  busy: boolean;
  error?: string;
  /** Where the last code went (an e-mail address, a masked phone), once one was asked for. */
  sentTo: string | null;
  enabled: boolean;
  onSend: () => void;
  onVerify: (code: string) => void;
}) {
  const [code, setCode] = useState('');
  const method = state.signer.verification_method;
  const locked = state.signer.locked;
  const sent = sentTo != null;
  if (method === 'none') return null;
  return (
    <section className="card" aria-labelledby="sign-verify">
      <h2 id="sign-verify">{t.verifyHeading}</h2>
      {state.signer.verified ? (
        <p className="notice notice-success">{t.verified}</p>
      ) : (
        <div className="stack">
          <p>{method === 'email_otp' ? t.verifyIntro.email_otp(state.signer.email) : t.verifyIntro.sms_otp}</p>
          <div>
            <Button variant={sent ? 'plain' : 'primary'} disabled={!enabled || busy || locked} onClick={onSend}>
              {sent ? t.resendCode : t.sendCode}
            </Button>
          </div>
          {sent && (
            <p className="muted" role="status">
              {t.codeSent(sentTo)}
            </p>
          )}
          {sent && (
            <form
              className="stack"
              onSubmit={(e) => {
                e.preventDefault();
                onVerify(code);
              }}
            >
              <div className="field">
                <label htmlFor="sign-code">{t.codeLabel}</label>
                <input
                  id="sign-code"
                  className="sign-code"
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  pattern="[0-9]{6}"
                  maxLength={6}
                  value={code}
                  disabled={locked}
                  aria-invalid={Boolean(error)}
                  onChange={(e) => setCode(e.target.value.replace(/\D/g, '').slice(0, 6))}
                />
              </div>
              <div>
                <Button type="submit" variant="primary" disabled={busy || locked || code.length !== 6}>
                  {t.verifyButton}
                </Button>
              </div>
            </form>
          )}
          <ErrorLine message={error} />
        </div>
      )}
    </section>
  );
}

/**
 * The signer's fields as a list of labelled inputs (the boxes on the pages lead here). Each value is saved when the
 * input is left (PUT …/fields/<id>); signature and initials are filled by the signature itself.
 */
export function FieldsStep({ fields, values, t, enabled, busy, errors, onChange, onSave }: {
  fields: SignField[];
  values: Record<string, string>;
  t: SignTexts;
  enabled: boolean;
  busy: boolean;
  errors: Record<string, string>;
  onChange: (id: string, value: string) => void;
  onSave: (id: string, value: string) => void;
}) {
  if (!fields.length) return null;
  return (
    <section className="card" aria-labelledby="sign-fields">
      <h2 id="sign-fields">{t.fieldsHeading}</h2>
      <fieldset className="form sign-fieldset" disabled={!enabled}>
        {fields.map((f) => (
          <FieldInput key={f.id} field={f} value={values[f.id] ?? ''} t={t} busy={busy} error={errors[f.id]} onChange={onChange} onSave={onSave} />
        ))}
      </fieldset>
    </section>
  );
}

function FieldInput({ field, value, t, busy, error, onChange, onSave }: {
  field: SignField;
  value: string;
  t: SignTexts;
  busy: boolean;
  error?: string;
  onChange: (id: string, value: string) => void;
  onSave: (id: string, value: string) => void;
}) {
  const id = `sign-field-${field.id}`;
  const label = `${field.label || t.fieldTypes[field.type]}${field.required ? '' : ` ${t.optional}`}`;
  const where = <span className="muted"> · {t.onPage(field.page)}</span>;
  if (isSignatureField(field)) {
    return (
      <div className="field" id={id} tabIndex={-1}>
        <span className="sign-field-label">
          {label}
          {where}
        </span>
        <span className="muted">{t.fieldFromSignature}</span>
      </div>
    );
  }
  if (field.type === 'checkbox') {
    return (
      <div className="field" data-invalid={Boolean(error)}>
        <label className="sign-check">
          <input
            id={id}
            type="checkbox"
            checked={value === 'true'}
            onChange={(e) => {
              const next = e.target.checked ? 'true' : 'false';
              onChange(field.id, next);
              onSave(field.id, next);
            }}
          />{' '}
          {label}
          {where}
        </label>
        <ErrorLine message={error} />
      </div>
    );
  }
  const type = field.type === 'date' ? 'date' : field.type === 'email' ? 'email' : 'text';
  return (
    <div className="field" data-invalid={Boolean(error)}>
      <label htmlFor={id}>
        {label}
        {where}
      </label>
      <input
        id={id}
        type={type}
        value={value}
        required={field.required}
        autoComplete={field.type === 'name' ? 'name' : field.type === 'email' ? 'email' : 'off'}
        maxLength={MAX_LENGTH[field.type]}
        aria-invalid={Boolean(error)}
        readOnly={busy}
        onChange={(e) => onChange(field.id, e.target.value)}
        onBlur={(e) => onSave(field.id, e.target.value)}
      />
      <ErrorLine message={error} />
    </div>
  );
}

export function UploadsStep({ docs, t, enabled, busy, errors, onUpload }: {
  docs: RequestedDocument[];
  t: SignTexts;
  enabled: boolean;
  busy: boolean;
  errors: Record<string, string>;
  onUpload: (id: string, file: File) => void;
}) {
  if (!docs.length) return null;
  return (
    <section className="card" aria-labelledby="sign-uploads">
      <h2 id="sign-uploads">{t.uploadsHeading}</h2>
      <ul className="sign-uploads">
        {docs.map((doc) => (
          <UploadRow key={doc.id} doc={doc} t={t} enabled={enabled} busy={busy} error={errors[doc.id]} onUpload={onUpload} />
        ))}
      </ul>
    </section>
  );
}

function UploadRow({ doc, t, enabled, busy, error, onUpload }: {
  doc: RequestedDocument;
  t: SignTexts;
  enabled: boolean;
  busy: boolean;
  error?: string;
  onUpload: (id: string, file: File) => void;
}) {
  const [file, setFile] = useState<File | null>(null);
  const inputId = useId();
  const name = uploadedName(doc);
  return (
    <li>
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          if (file) onUpload(doc.id, file);
        }}
      >
        <p className="sign-field-label">
          {doc.label}
          {!doc.required && <span className="muted"> {t.optional}</span>}
        </p>
        {doc.description && <p className="muted">{doc.description}</p>}
        {name && <p className="notice notice-success">{t.uploaded(name)}</p>}
        <label className="sr-only" htmlFor={inputId}>
          {t.fileLabel(doc.label)}
        </label>
        <input id={inputId} type="file" disabled={!enabled} onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
        <div>
          <Button type="submit" disabled={!enabled || busy || !file}>
            {t.uploadButton}
          </Button>
        </div>
        <ErrorLine message={error} />
      </form>
    </li>
  );
}

export function DeclineStep({ t, busy, error, onDecline }: { t: SignTexts; busy: boolean; error?: string; onDecline: (reason: string) => void }) {
  const [reason, setReason] = useState('');
  const [missing, setMissing] = useState(false);
  return (
    <details className="card sign-decline">
      <summary>{t.declineSummary}</summary>
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          setMissing(!reason.trim());
          if (reason.trim()) onDecline(reason.trim());
        }}
      >
        <h2 className="sr-only">{t.declineHeading}</h2>
        <div className="field" data-invalid={missing}>
          <label htmlFor="sign-decline-reason">{t.declineReason}</label>
          <textarea id="sign-decline-reason" rows={3} maxLength={2000} value={reason} aria-invalid={missing} onChange={(e) => setReason(e.target.value)} />
          <ErrorLine message={missing ? t.reasonMissing : null} />
        </div>
        <div>
          <Button type="submit" variant="danger" disabled={busy}>
            {t.declineButton}
          </Button>
        </div>
        <ErrorLine message={error} />
      </form>
    </details>
  );
}
