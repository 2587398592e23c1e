'use client';

import Link from 'next/link';
import { useActionState, useRef, useState } from 'react';
import { Button, FormErrors, SubmitButton } from '@/components/ui';
import { CODE_MESSAGES } from '@/lib/platform/i18n';
import { type BoundFormAction, initialFormState } from '@/lib/platform/next/client';

// The refusals that only Settings → Paiements can lift: shown with a link to it.
const SETTINGS_REFUSALS = new Set(
  ['payments_disabled', 'payments_account_required', 'payments_account_not_ready', 'payments_account_not_found'].map((code) => CODE_MESSAGES[code]),
);

function Refusal({ state }: { state: { error?: string; errors?: Record<string, string> } }) {
  return (
    <>
      <FormErrors state={state} placed={['email']} />
      {SETTINGS_REFUSALS.has(state.error ?? state.errors?._form) && (
        <p>
          <Link href="/settings/payments">Ouvrir Réglages → Paiements</Link>
        </p>
      )}
    </>
  );
}

/** The link in a read-only field (selectable without JavaScript) and a "Copier" button. */
function CopyField({ url, documentId }: { url: string; documentId: string }) {
  const field = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    field.current?.select();
    try {
      await navigator.clipboard.writeText(url);
    } catch {
      // No clipboard API (plain http): the selected text is copied the old way.
      document.execCommand('copy');
    }
    setCopied(true);
  };
  return (
    <div className="field">
      <label htmlFor={`pay-url-${documentId}`}>Lien de paiement à transmettre au client</label>
      <div className="toolbar" style={{ marginBottom: 0, flexWrap: 'nowrap' }}>
        <input
          ref={field}
          id={`pay-url-${documentId}`}
          type="text"
          readOnly
          value={url}
          onFocus={(e) => e.currentTarget.select()}
          data-testid="payment-link"
          style={{ flex: '1 1 auto', minWidth: 0 }}
        />
        <Button small onClick={copy}>
          {copied ? 'Copié ✓' : 'Copier'}
        </Button>
      </div>
      <span className="sr-only" role="status">
        {copied ? 'Lien copié.' : ''}
      </span>
    </div>
  );
}

/** The document's payment link: shown when it exists, else a button that creates it. */
export function PaymentLinkBox({ documentId, url, create }: { documentId: string; url: string | null; create: BoundFormAction<{ url: string | null }> }) {
  const [state, action] = useActionState(create, initialFormState);
  const shown = state.data?.url ?? url;
  return (
    <div className="stack">
      {shown ? (
        <CopyField url={shown} documentId={documentId} />
      ) : (
        <form action={action} className="stack">
          <p className="muted">Une page où le client paie cette facture par carte ou par prélèvement SEPA, sans compte à créer.</p>
          <div className="toolbar">
            <SubmitButton variant="plain" pendingLabel="Création…">
              Créer le lien de paiement
            </SubmitButton>
          </div>
        </form>
      )}
      {state.done && (
        <p className="notice notice-success" role="status">
          {state.done}
        </p>
      )}
      <Refusal state={state} />
    </div>
  );
}
