'use client';

import { useState, useTransition } from 'react';
import { isRefusal } from '@/lib/platform/next/client';
import { retryTransmissionAction } from './einvoicing-actions';
import { Button } from '@/components/ui';

/** The retry of a failed transmission: the submission starts over (the PA never gets the invoice twice). */
export function RetryTransmission({ documentId }: { documentId: string }) {
  const [message, setMessage] = useState<string | null>(null);
  const [pending, start] = useTransition();
  return (
    <div className="stack">
      <div>
        <Button
          small
          disabled={pending}
          onClick={() =>
            start(async () => {
              const result = await retryTransmissionAction(documentId);
              setMessage(isRefusal(result) ? (result.error ?? 'La transmission n’a pas pu être relancée.') : 'Transmission relancée : elle repart vers la plateforme agréée.');
            })
          }
        >
          {pending ? 'Relance…' : 'Relancer la transmission'}
        </Button>
      </div>
      {message && (
        <p className="notice" role="status">
          {message}
        </p>
      )}
    </div>
  );
}
