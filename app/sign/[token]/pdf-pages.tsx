'use client';

import { useEffect, useRef, useState } from 'react';
import { isSignatureField, type SignField } from './api';
import type { SignTexts } from './texts';

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

/**
 * The document, page by page, each page a canvas the width of the column, with the signer's fields drawn where they
 * sit. A field is a button that takes the signer to its input in the list below (the inputs live there: a box a few
 * pixels high on a phone is no place to type). Canvases are images to a screen reader: each page is labelled, and the
 * PDF can be downloaded.
 */
export function PdfPages({ url, pageCount, fields, values, t, onPick }: {
  url: string;
  pageCount: number;
  fields: SignField[];
  values: Record<string, string>;
  t: SignTexts;
  onPick: (fieldId: string) => void;
}) {
  const holder = useRef<HTMLDivElement>(null);
  const pages = useRef<PdfPage[]>([]);
  const [sizes, setSizes] = useState<Array<{ width: number; height: number }>>([]);
  const [rendered, setRendered] = useState(0);
  const [failed, setFailed] = useState(false);

  // The PDF, fetched and opened; its pages' sizes lay the canvases out before anything is drawn.
  useEffect(() => {
    let cancelled = false;
    let destroy: (() => void) | undefined;
    (async () => {
      const lib = await loadPdfJs();
      const res = await fetch(url, { cache: 'no-store', credentials: 'omit' });
      if (!res.ok) throw new Error(`document: ${res.status}`);
      // No eval (the CSP forbids it); fonts the PDF does not embed are drawn with the browser's own.
      const task = lib.getDocument({ data: new Uint8Array(await res.arrayBuffer()), isEvalSupported: false, useSystemFonts: true });
      destroy = () => void task.destroy();
      const doc = await task.promise;
      const loaded = await Promise.all(Array.from({ length: doc.numPages }, (_, i) => doc.getPage(i + 1)));
      if (cancelled) return;
      pages.current = loaded;
      setSizes(loaded.map((p) => p.getViewport({ scale: 1 })).map((v) => ({ width: v.width, height: v.height })));
    })().catch(() => !cancelled && setFailed(true));
    return () => {
      cancelled = true;
      destroy?.();
    };
  }, [url]);

  // Once the canvases are on the page: each drawn at the column's width, the first page first (the signer reads
  // while the rest draws).
  useEffect(() => {
    if (!sizes.length) return;
    let cancelled = false;
    (async () => {
      for (const [i, page] of pages.current.entries()) {
        const canvas = holder.current?.querySelector<HTMLCanvasElement>(`canvas[data-page="${i + 1}"]`);
        if (cancelled || !canvas) return;
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
  }, [sizes]);

  const total = sizes.length || pageCount;
  const busy = !failed && rendered < total;
  return (
    <div className="sign-document" ref={holder} aria-busy={busy}>
      {busy && (
        <p className="muted" role="status">
          {t.documentLoading(rendered, sizes.length)}
        </p>
      )}
      {failed && <p className="notice notice-warning">{t.documentFailed}</p>}
      {sizes.map((size, i) => {
        const n = i + 1;
        return (
          <div key={n} className="sign-page" style={{ aspectRatio: `${size.width} / ${size.height}` }}>
            <canvas data-page={n} role="img" aria-label={t.pageLabel(n, total)} />
            {fields
              .filter((f) => f.page === n)
              .map((f) => (
                <button
                  key={f.id}
                  type="button"
                  className={`sign-field-box${values[f.id] ? ' is-filled' : ''}${isSignatureField(f) ? ' is-signature' : ''}`}
                  style={{ left: `${f.x * 100}%`, top: `${f.y * 100}%`, width: `${f.width * 100}%`, height: `${f.height * 100}%` }}
                  aria-label={boxName(f, values[f.id], n, t)}
                  onClick={() => onPick(f.id)}
                >
                  <span aria-hidden="true">{boxText(f, values[f.id], t)}</span>
                </button>
              ))}
          </div>
        );
      })}
    </div>
  );
}

/** A box's accessible name: the field and its page, then what the box shows when that is not its name (WCAG 2.5.3). */
function boxName(field: SignField, value: string | undefined, page: number, t: SignTexts): string {
  const name = field.label || t.fieldTypes[field.type];
  const shown = boxText(field, value, t);
  return `${t.fieldOnPage(name, page)}${name.includes(shown) ? '' : ` : ${shown}`}`;
}

/** What a field's box shows: its value once filled, else what it asks for. */
function boxText(field: SignField, value: string | undefined, t: SignTexts): string {
  if (field.type === 'checkbox') return value === 'true' ? '☑' : '☐';
  if (isSignatureField(field)) return t.fieldTypes[field.type];
  return value || field.label || t.fieldTypes[field.type];
}
