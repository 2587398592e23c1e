'use client';

import { useEffect, useState, useTransition } from 'react';
import { isRefusal } from '@/lib/platform/next/client';
import type { DocumentRender } from '@/lib/domain/pdf';
import { pdfRenderStateAction, retryPdfRenderAction } from './pdf-status-actions';
import { Button, DownloadButton, StatusChip } from '@/components/ui';

type RenderStatus = DocumentRender['render_status'];

const STATES: Record<RenderStatus, { label: string; chip: string }> = {
  pending: { label: 'PDF en attente de génération', chip: 'chip-grey' },
  rendering: { label: 'PDF en cours de génération…', chip: 'chip-blue' },
  ready: { label: 'PDF prêt', chip: 'chip-green' },
  failed: { label: 'La génération du PDF a échoué', chip: 'chip-red' },
};

const POLL_MS = 2500;

const frame = { width: '100%', height: '80vh', border: '1px solid var(--line)', borderRadius: 'var(--radius)', background: '#fff' } as const;

/**
 * The PDF of a finalized document on its page: its render state, followed live while the job works (pending,
 * rendering), a retry button when it failed (the same re-queue as POST /v1/invoices/{id}/render), then the stored
 * file in an inline viewer with a download link.
 */
export function PdfStatus({ documentId, status: initial, viewer = true }: { documentId: string; status: RenderStatus; viewer?: boolean }) {
  const [status, setStatus] = useState<RenderStatus>(initial);
  const [error, setError] = useState<string | null>(null);
  const [retrying, startRetry] = useTransition();

  useEffect(() => {
    if (status !== 'pending' && status !== 'rendering') return;
    let active = true;
    const timer = setInterval(async () => {
      const state = await pdfRenderStateAction(documentId);
      if (active && !isRefusal(state)) setStatus(state.render_status);
    }, POLL_MS);
    return () => {
      active = false;
      clearInterval(timer);
    };
  }, [documentId, status]);

  const retry = () =>
    startRetry(async () => {
      setError(null);
      const state = await retryPdfRenderAction(documentId);
      if (isRefusal(state)) setError(state.error ?? null);
      else setStatus(state.render_status);
    });

  const pdfUrl = `/v1/invoices/${documentId}/pdf`;
  const state = STATES[status];
  return (
    <div className="pdf-status">
      <div style={{ display: 'flex', alignItems: 'center', gap: 10, marginBottom: 10 }}>
        <StatusChip tone={state.chip} role="status" aria-live="polite">
          {state.label}
        </StatusChip>
        {status === 'failed' && (
          <Button small onClick={retry} disabled={retrying}>
            {retrying ? 'Relance…' : 'Relancer la génération'}
          </Button>
        )}
        {status === 'ready' && (
          <DownloadButton small href={`${pdfUrl}?download=true`}>
            Télécharger le PDF
          </DownloadButton>
        )}
      </div>
      {error && <p className="form-error">{error}</p>}
      {viewer && status === 'ready' && <iframe src={pdfUrl} title="Document PDF" style={frame} />}
    </div>
  );
}

/** A draft's preview, rendered on the fly and watermarked (GET /v1/invoices/{id}/preview); nothing is stored. */
export function PdfPreview({ documentId }: { documentId: string }) {
  return <iframe src={`/v1/invoices/${documentId}/preview`} title="Aperçu du document (brouillon)" style={frame} />;
}
