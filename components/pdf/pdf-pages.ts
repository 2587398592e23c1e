'use client';

import { type RefObject, useEffect, useRef, useState } from 'react';

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
type PdfPage = Awaited<ReturnType<Awaited<ReturnType<PdfJs['getDocument']>['promise']>['getPage']>>;

let pdfjs: Promise<PdfJs> | null = null;
/**
 * pdf.js, loaded once, with its worker bundled by Next (served from our own origin: no CDN; the CSP allows workers
 * from 'self' only). The legacy build: it runs on the older phone browsers the modern one leaves out.
 */
function loadPdfJs(): Promise<PdfJs> {
  pdfjs ??= import('pdfjs-dist/legacy/build/pdf.mjs').then((lib) => {
    lib.GlobalWorkerOptions.workerPort = new Worker(new URL('pdfjs-dist/legacy/build/pdf.worker.min.mjs', import.meta.url), { type: 'module' });
    return lib;
  });
  return pdfjs;
}

/** Canvas pixels per CSS pixel: sharp on a phone's dense screen, bounded so a long document stays light. */
const pixelRatio = () => Math.min(window.devicePixelRatio || 1, 2);

export interface PdfPagesState {
  /** Each page's size in PDF points (its aspect ratio lays its canvas out before it is drawn); empty until opened. */
  sizes: Array<{ width: number; height: number }>;
  /** How many pages are drawn, in order. */
  rendered: number;
  /** The document could not be fetched, opened or drawn. */
  failed: boolean;
}

/**
 * The PDF at `url`, drawn page by page into the `canvas[data-page="n"]` elements under `holder` (the caller renders
 * one per entry of `sizes`), each at its parent's width. The signer's page and the back-office's field placer share
 * it. Two steps, two effects: the document is fetched and opened, its page sizes set; then, once React has committed
 * the canvases those sizes lay out, each is drawn, the first page first. (Drawing from the first step, a frame after
 * setting the sizes, found no canvas whenever React had not committed yet, and stopped without a word.)
 */
export function usePdfPages(url: string, holder: RefObject<HTMLElement | null>, credentials: RequestCredentials = 'same-origin'): PdfPagesState {
  const pages = useRef<PdfPage[]>([]);
  const [sizes, setSizes] = useState<PdfPagesState['sizes']>([]);
  const [rendered, setRendered] = useState(0);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let cancelled = false;
    let destroy: (() => void) | undefined;
    (async () => {
      const lib = await loadPdfJs();
      const res = await fetch(url, { cache: 'no-store', credentials });
      if (!res.ok) throw new Error(`document: ${res.status}`);
      // No eval (the CSP forbids it); fonts the PDF does not embed are drawn with the browser's own.
      const task = lib.getDocument({ data: new Uint8Array(await res.arrayBuffer()), isEvalSupported: false, useSystemFonts: true });
      destroy = () => void task.destroy();
      const doc = await task.promise;
      const loaded = await Promise.all(Array.from({ length: doc.numPages }, (_, i) => doc.getPage(i + 1)));
      if (cancelled) return;
      pages.current = loaded;
      setRendered(0);
      setSizes(loaded.map((p) => p.getViewport({ scale: 1 })).map((v) => ({ width: v.width, height: v.height })));
    })().catch(() => !cancelled && setFailed(true));
    return () => {
      cancelled = true;
      destroy?.();
    };
  }, [url, credentials]);

  // After the commit that put the canvases on the page: a missing one is a failure, said as such.
  useEffect(() => {
    if (!sizes.length) return;
    let cancelled = false;
    (async () => {
      for (const [i, page] of pages.current.entries()) {
        if (cancelled) return;
        const canvas = holder.current?.querySelector<HTMLCanvasElement>(`canvas[data-page="${i + 1}"]`);
        if (!canvas) throw new Error(`no canvas for page ${i + 1}`);
        const base = page.getViewport({ scale: 1 });
        const cssWidth = canvas.parentElement?.clientWidth || base.width;
        const viewport = page.getViewport({ scale: (cssWidth / base.width) * pixelRatio() });
        canvas.width = Math.floor(viewport.width);
        canvas.height = Math.floor(viewport.height);
        await page.render({ canvas, viewport }).promise;
        if (!cancelled) setRendered(i + 1);
      }
    })().catch(() => !cancelled && setFailed(true));
    return () => {
      cancelled = true;
    };
  }, [sizes, holder]);

  return { sizes, rendered, failed };
}
