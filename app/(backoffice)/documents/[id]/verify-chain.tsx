'use client';

import { useState, useTransition } from 'react';
import { isRefusal } from '@/lib/platform/next/client';
import { type ChainCheck, verifyChainAction } from '../actions';
import { Button } from '@/components/ui';

/** chain:verify on demand: every finalized document of the org re-hashed, in chain order. */
export function VerifyChain() {
  const [result, setResult] = useState<ChainCheck | null>(null);
  const [pending, start] = useTransition();
  return (
    <div className="stack">
      <div>
        <Button small disabled={pending} onClick={() =>
            start(async () => {
              const check = await verifyChainAction();
              setResult(isRefusal(check) ? { ok: false, verified: 0, message: check.error ?? '' } : check);
            })
          }>
          {pending ? 'Vérification…' : 'Vérifier la chaîne'}
        </Button>
      </div>
      {result && (
        <p className={`notice ${result.ok ? 'notice-success' : 'notice-warning'}`} role="status">
          {result.message}
        </p>
      )}
    </div>
  );
}
