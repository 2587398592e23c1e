'use client';

import { useState, useTransition } from 'react';
import { ofName } from '@/lib/platform/i18n';
import { isRefusal, refusalMessage } from '@/lib/platform/next/client';
import { signerLinkAction } from '../actions';
import { Button } from '@/components/ui';

/** « Copier le lien »: the signer's current link, fetched then copied (and shown, for a browser that refuses the clipboard). */
export function SignerLink({ envelopeId, signerId, name }: { envelopeId: string; signerId: string; name: string }) {
  const [answer, setAnswer] = useState<{ url?: string; error?: string; copied?: boolean } | null>(null);
  const [pending, start] = useTransition();
  const copy = () =>
    start(async () => {
      const r = await signerLinkAction(envelopeId, signerId);
      if (isRefusal(r)) return setAnswer({ error: refusalMessage(r) });
      const copied = await navigator.clipboard?.writeText(r.url).then(
        () => true,
        () => false,
      );
      setAnswer({ url: r.url, copied: Boolean(copied) });
    });
  return (
    <div className="stack">
      <div>
        <Button small onClick={copy} disabled={pending}>
          Copier le lien <span className="sr-only">de {name}</span>
        </Button>
      </div>
      {answer?.error && (
        <span className="form-error" role="alert">
          {answer.error}
        </span>
      )}
      {answer?.url && (
        <span role="status">
          {answer.copied ? 'Lien copié : ' : 'Lien : '}
          <input readOnly aria-label={`Lien de signature ${ofName(name)}`} value={answer.url} onFocus={(e) => e.currentTarget.select()} />
        </span>
      )}
    </div>
  );
}
