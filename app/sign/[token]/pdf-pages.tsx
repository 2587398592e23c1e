'use client';

import { useRef } from 'react';
import { usePdfPages } from '@/components/pdf/pdf-pages';
import { isSignatureField, type SignField } from './api';
import type { SignTexts } from './texts';

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
  // The signer's link is the credential: no cookie goes with the document.
  const { sizes, rendered, failed } = usePdfPages(url, holder, 'omit');

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
