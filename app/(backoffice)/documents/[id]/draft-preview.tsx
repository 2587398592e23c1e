'use client';

import { useState } from 'react';
import { PdfPreview } from '@/components/pdf/pdf-status';
import { Button } from '@/components/ui';

/** A draft's PDF is rendered on request only: each preview is a fresh render on the server. */
export function DraftPreview({ documentId }: { documentId: string }) {
  const [shown, setShown] = useState(false);
  return shown ? (
    <PdfPreview documentId={documentId} />
  ) : (
    <Button small onClick={() => setShown(true)}>
      Afficher l’aperçu PDF
    </Button>
  );
}
