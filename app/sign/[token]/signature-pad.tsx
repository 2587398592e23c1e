'use client';

import { useEffect, useRef, useState } from 'react';
import type { SignTexts } from './texts';
import { Button } from '@/components/ui';

export type SignatureInput = { kind: 'typed'; value: string } | { kind: 'drawn'; value: string };

/**
 * A typed or drawn signature. Typed is the keyboard's way (and the default): the name in a handwriting face of the
 * system. Drawn: a canvas following a finger, mouse or stylus (pointer events), handed over as a PNG data URL. The
 * parent gets the signature as it changes (null while empty).
 */
export function SignaturePad({ t, defaultName, onChange, disabled }: {
  t: SignTexts;
  defaultName: string;
  onChange: (signature: SignatureInput | null) => void;
  disabled: boolean;
}) {
  const [kind, setKind] = useState<'typed' | 'drawn'>('typed');
  const [name, setName] = useState(defaultName);
  const [drawing, setDrawing] = useState<string | null>(null);

  useEffect(() => {
    if (kind === 'typed') onChange(name.trim() ? { kind, value: name.trim() } : null);
    else onChange(drawing ? { kind, value: drawing } : null);
  }, [kind, name, drawing, onChange]);

  return (
    <div className="stack">
      <fieldset className="sign-kind" disabled={disabled}>
        <legend>{t.signatureKind}</legend>
        {(['typed', 'drawn'] as const).map((k) => (
          <label key={k}>
            <input type="radio" name="signature-kind" value={k} checked={kind === k} onChange={() => setKind(k)} /> {k === 'typed' ? t.typed : t.drawn}
          </label>
        ))}
      </fieldset>
      {kind === 'typed' ? (
        <div className="field">
          <label htmlFor="sign-typed">{t.typedLabel}</label>
          <input id="sign-typed" type="text" autoComplete="name" maxLength={200} value={name} disabled={disabled} onChange={(e) => setName(e.target.value)} />
          {name.trim() && (
            <p className="sign-typed-preview" aria-hidden="true">
              {name.trim()}
            </p>
          )}
        </div>
      ) : (
        <DrawArea t={t} onDrawn={setDrawing} disabled={disabled} />
      )}
    </div>
  );
}

function DrawArea({ t, onDrawn, disabled }: { t: SignTexts; onDrawn: (png: string | null) => void; disabled: boolean }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const last = useRef<{ x: number; y: number } | null>(null);
  const inked = useRef(false);

  // The bitmap at the canvas's displayed size and the screen's density, so strokes are sharp and under the finger.
  useEffect(() => {
    const el = canvas.current;
    if (!el) return;
    const ratio = Math.min(window.devicePixelRatio || 1, 2);
    el.width = Math.round(el.clientWidth * ratio);
    el.height = Math.round(el.clientHeight * ratio);
    const ctx = el.getContext('2d');
    if (!ctx) return;
    ctx.scale(ratio, ratio);
    ctx.lineWidth = 2.5;
    ctx.lineCap = 'round';
    ctx.lineJoin = 'round';
    ctx.strokeStyle = '#1d2433';
  }, []);

  const point = (e: React.PointerEvent<HTMLCanvasElement>) => {
    const rect = e.currentTarget.getBoundingClientRect();
    return { x: e.clientX - rect.left, y: e.clientY - rect.top };
  };
  const stroke = (to: { x: number; y: number }) => {
    const ctx = canvas.current?.getContext('2d');
    const from = last.current;
    if (!ctx || !from) return;
    ctx.beginPath();
    ctx.moveTo(from.x, from.y);
    ctx.lineTo(to.x + (to.x === from.x && to.y === from.y ? 0.1 : 0), to.y);
    ctx.stroke();
    last.current = to;
    inked.current = true;
  };
  const clear = () => {
    const el = canvas.current;
    el?.getContext('2d')?.clearRect(0, 0, el.width, el.height);
    inked.current = false;
    onDrawn(null);
  };

  return (
    <div className="stack">
      <canvas
        ref={canvas}
        className="sign-draw"
        role="img"
        aria-label={t.drawLabel}
        onPointerDown={(e) => {
          if (disabled) return;
          e.currentTarget.setPointerCapture(e.pointerId);
          last.current = point(e);
          stroke(point(e));
        }}
        onPointerMove={(e) => {
          if (last.current) stroke(point(e));
        }}
        onPointerUp={() => {
          last.current = null;
          if (inked.current) onDrawn(canvas.current?.toDataURL('image/png') ?? null);
        }}
        onPointerCancel={() => {
          last.current = null;
        }}
      />
      <p className="muted">{t.drawHint}</p>
      <div>
        <Button small onClick={clear} disabled={disabled}>
          {t.clear}
        </Button>
      </div>
    </div>
  );
}
