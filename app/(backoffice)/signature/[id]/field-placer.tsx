'use client';

import { useEffect, useRef, useState, useTransition } from 'react';
import { usePdfPages } from '@/components/pdf/pdf-pages';
import { isRefusal, refusalMessage } from '@/lib/platform/next/client';
import { saveFieldsAction } from '../actions';
import { clampBox, type PlacedField, toFieldsPayload } from '../editor-model';
import { FIELD_DEFAULT_SIZE, FIELD_TYPE_LABELS, type FieldType } from '../labels';
import '../signature.css';
import { Button, DataTable } from '@/components/ui';

const TYPES = Object.keys(FIELD_TYPE_LABELS) as FieldType[];
let counter = 0;
const nextKey = () => `f${++counter}`;
const pct = (v: number) => Math.round(v * 1000) / 10;

interface Props {
  envelopeId: string;
  documentUrl: string;
  signers: Array<{ id: string; name: string }>;
  initial: PlacedField[];
}

/**
 * Fields placed on the rendered pages: drag a type from the palette onto a page, drag a box to move it; the table
 * below is the keyboard way (page, position and size in % of the page) and the place to set the signer, label and
 * « obligatoire ». « Enregistrer les champs » replaces the envelope's fields (PUT …/fields).
 */
export function FieldPlacer({ envelopeId, documentUrl, signers, initial }: Props) {
  const [fields, setFields] = useState<PlacedField[]>(initial);
  const [signer, setSigner] = useState(signers[0]?.id ?? '');
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [saving, startSave] = useTransition();
  const holder = useRef<HTMLDivElement>(null);
  // The document with the session's cookie (the /v1 route answers staff through it).
  const { sizes, rendered, failed } = usePdfPages(documentUrl, holder);
  const moving = useRef<{ key: string; dx: number; dy: number; page: HTMLElement } | null>(null);
  const dragging = useRef<{ type: FieldType; x: number; y: number; moved: boolean } | null>(null);
  const dropped = useRef(false);
  const [ghost, setGhost] = useState<{ type: FieldType; x: number; y: number } | null>(null);

  // Dragging from the palette with pointer events (mouse, pen and touch alike; HTML5 drag and drop has no touch): the
  // field lands where the pointer is released, on the page under it.
  useEffect(() => {
    const move = (e: PointerEvent) => {
      const d = dragging.current;
      if (!d) return;
      if (!d.moved && Math.hypot(e.clientX - d.x, e.clientY - d.y) < 6) return;
      d.moved = true;
      setGhost({ type: d.type, x: e.clientX, y: e.clientY });
    };
    const up = (e: PointerEvent) => {
      const d = dragging.current;
      dragging.current = null;
      setGhost(null);
      if (!d?.moved) return;
      dropped.current = true;
      const page = document.elementFromPoint(e.clientX, e.clientY)?.closest<HTMLElement>('.placer-page');
      if (!page) return;
      const r = page.getBoundingClientRect();
      addRef.current(d.type, Number(page.dataset.page), (e.clientX - r.left) / r.width, (e.clientY - r.top) / r.height);
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
    return () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
    };
  }, []);

  const update = (key: string, change: Partial<PlacedField>) =>
    setFields((list) => list.map((f) => (f.key === key ? { ...f, ...change, ...clampBox({ ...f, ...change }) } : f)));
  const add = (type: FieldType, page: number, x?: number, y?: number) => {
    const size = FIELD_DEFAULT_SIZE[type];
    const box = clampBox({ ...size, x: (x ?? 0.5) - size.width / 2, y: (y ?? 0.5) - size.height / 2 });
    setFields((list) => [...list, { key: nextKey(), signer_id: signer, type, page, required: type !== 'checkbox', label: '', ...box }]);
    setMessage(null);
  };
  const addRef = useRef(add);
  addRef.current = add;
  const fraction = (e: { clientX: number; clientY: number }, page: HTMLElement) => {
    const r = page.getBoundingClientRect();
    return { x: (e.clientX - r.left) / r.width, y: (e.clientY - r.top) / r.height };
  };

  const save = () =>
    startSave(async () => {
      const answer = await saveFieldsAction(envelopeId, toFieldsPayload(fields));
      if (isRefusal(answer)) setMessage({ ok: false, text: refusalMessage(answer) });
      else {
        setFields(answer.data.map((f) => ({ key: f.id, signer_id: f.signer_id, type: f.type, page: f.page, x: f.x, y: f.y, width: f.width, height: f.height, required: f.required, label: f.label ?? '' })));
        setMessage({ ok: true, text: `${answer.data.length} champ${answer.data.length > 1 ? 's' : ''} enregistré${answer.data.length > 1 ? 's' : ''}.` });
      }
    });

  const signerName = (id: string) => signers.find((s) => s.id === id)?.name ?? 'Signataire retiré';
  const nameOf = (f: PlacedField, i: number) => `${FIELD_TYPE_LABELS[f.type]} ${i + 1}`;
  const percentInput = (f: PlacedField, i: number, key: 'x' | 'y' | 'width' | 'height', label: string) => (
    <input
      type="number"
      step="0.1"
      min="0"
      max="100"
      className="placer-num"
      aria-label={`${label} du champ ${nameOf(f, i)}, en % de la page`}
      value={pct(f[key])}
      onChange={(e) => update(f.key, { [key]: Number(e.target.value) / 100 })}
    />
  );

  return (
    <div className="placer">
      <div className="placer-palette toolbar">
        <label>
          Signataire{' '}
          <select value={signer} onChange={(e) => setSigner(e.target.value)}>
            {signers.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </label>
        <span className="muted">Glissez un champ sur une page, ou cliquez pour l’ajouter en page 1 :</span>
        {TYPES.map((type) => (
          <Button
            key={type}
            small className="placer-source"
            data-field-type={type}
            onPointerDown={(e) => {
              if (e.button !== 0) return;
              dragging.current = { type, x: e.clientX, y: e.clientY, moved: false };
            }}
            onClick={() => {
              // A drag that ended on a page has placed the field already; a plain click (or Enter) adds it.
              if (dropped.current) {
                dropped.current = false;
                return;
              }
              add(type, 1);
            }}
          >
            {FIELD_TYPE_LABELS[type]}
          </Button>
        ))}
      </div>

      {ghost && (
        <div className="placer-ghost" aria-hidden="true" style={{ left: ghost.x, top: ghost.y }}>
          {FIELD_TYPE_LABELS[ghost.type]}
        </div>
      )}
      <div className="placer-pages" ref={holder} aria-busy={!failed && (sizes.length === 0 || rendered < sizes.length)}>
        {failed && <p className="notice notice-warning">Le document n’a pas pu être affiché : placez les champs avec le tableau ci-dessous.</p>}
        {!failed && sizes.length === 0 && (
          <p className="muted" role="status">
            Chargement du document…
          </p>
        )}
        {sizes.map((size, i) => {
          const n = i + 1;
          return (
            <section
              key={n}
              className="placer-page"
              aria-label={`Page ${n} : déposez un champ ici`}
              data-page={n}
              style={{ aspectRatio: `${size.width} / ${size.height}` }}
              onPointerMove={(e) => {
                const m = moving.current;
                if (!m) return;
                const at = fraction(e, m.page);
                update(m.key, { x: at.x - m.dx, y: at.y - m.dy });
              }}
              onPointerUp={() => {
                moving.current = null;
              }}
            >
              <canvas data-page={n} role="img" aria-label={`Page ${n} sur ${sizes.length}`} />
              {fields
                .filter((f) => f.page === n)
                .map((f) => (
                  <div
                    key={f.key}
                    className="placer-box"
                    data-testid="placed-field"
                    title={`${FIELD_TYPE_LABELS[f.type]} · ${signerName(f.signer_id)}`}
                    style={{ left: `${f.x * 100}%`, top: `${f.y * 100}%`, width: `${f.width * 100}%`, height: `${f.height * 100}%` }}
                    onPointerDown={(e) => {
                      const page = e.currentTarget.parentElement as HTMLElement;
                      const at = fraction(e, page);
                      moving.current = { key: f.key, dx: at.x - f.x, dy: at.y - f.y, page };
                      page.setPointerCapture(e.pointerId);
                    }}
                  >
                    <span aria-hidden="true">{f.label || FIELD_TYPE_LABELS[f.type]}</span>
                  </div>
                ))}
            </section>
          );
        })}
      </div>

      {fields.length > 0 && (
        <DataTable
          label="Champs placés"
          columns={[
            { key: 'name', header: 'Champ', cell: (f, i) => nameOf(f, i) },
            {
              key: 'signer',
              header: 'Signataire',
              cell: (f, i) => (
                <select aria-label={`Signataire du champ ${nameOf(f, i)}`} value={f.signer_id} onChange={(e) => update(f.key, { signer_id: e.target.value })}>
                  {signers.map((s) => (
                    <option key={s.id} value={s.id}>
                      {s.name}
                    </option>
                  ))}
                </select>
              ),
            },
            {
              key: 'page',
              header: 'Page',
              cell: (f, i) => (
                <input
                  type="number"
                  min="1"
                  max={sizes.length || undefined}
                  className="placer-num"
                  aria-label={`Page du champ ${nameOf(f, i)}`}
                  value={f.page}
                  onChange={(e) => update(f.key, { page: Math.max(1, Math.trunc(Number(e.target.value)) || 1) })}
                />
              ),
            },
            { key: 'x', header: 'Gauche (%)', cell: (f, i) => percentInput(f, i, 'x', 'Gauche') },
            { key: 'y', header: 'Haut (%)', cell: (f, i) => percentInput(f, i, 'y', 'Haut') },
            { key: 'width', header: 'Largeur (%)', cell: (f, i) => percentInput(f, i, 'width', 'Largeur') },
            { key: 'height', header: 'Hauteur (%)', cell: (f, i) => percentInput(f, i, 'height', 'Hauteur') },
            {
              key: 'label',
              header: 'Libellé',
              cell: (f, i) => <input aria-label={`Libellé du champ ${nameOf(f, i)}`} value={f.label} onChange={(e) => update(f.key, { label: e.target.value })} />,
            },
            {
              key: 'required',
              header: 'Obligatoire',
              cell: (f, i) => (
                <input type="checkbox" aria-label={`Champ ${nameOf(f, i)} obligatoire`} checked={f.required} onChange={(e) => update(f.key, { required: e.target.checked })} />
              ),
            },
            {
              key: 'remove',
              header: <span className="sr-only">Retirer</span>,
              cell: (f, i) => (
                <Button variant="ghost" small onClick={() => setFields((list) => list.filter((x) => x.key !== f.key))}>
                  Retirer <span className="sr-only">le champ {nameOf(f, i)}</span>
                </Button>
              ),
            },
          ]}
          rows={fields}
          rowKey={(f) => f.key}
        />
      )}

      <div className="toolbar">
        <Button variant="primary" onClick={save} disabled={saving}>
          {saving ? 'Enregistrement…' : 'Enregistrer les champs'}
        </Button>
        {message && (
          <span className={message.ok ? 'notice notice-success' : 'form-error'} role={message.ok ? 'status' : 'alert'}>
            {message.text}
          </span>
        )}
      </div>
    </div>
  );
}
