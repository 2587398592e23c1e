'use client';

import { useState } from 'react';
import { PdfPreview } from '@/components/pdf-status';

/** A draft's PDF is rendered on request only: each preview is a fresh render on the server. */
export function DraftPreview({ documentId }: { documentId: string }) {
  const [shown, setShown] = useState(false);
  return shown ? (
    <PdfPreview documentId={documentId} />
  ) : (
    <button type="button" className="btn btn-sm" onClick={() => setShown(true)}>
      Afficher l’aperçu PDF
    </button>
  );
}
