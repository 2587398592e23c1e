'use client';

import { useRef, useState, useTransition } from 'react';
import { isRefusal, refusalMessage } from '@/lib/platform/next/client';
import type { CompanyIdentity } from '@/lib/domain/company-registry';
import { lookupCompanyAction } from './company-registry-actions';
import { Button } from '@/components/ui';

/**
 * "Remplir depuis le SIREN", inside a form: reads the SIREN or SIRET typed in the form's `from` fields, asks the
 * company register (server action), and writes the answer into the form's inputs named in `fill` (the form's own
 * field name → the identity's). Staff check and save as usual; nothing is stored by the lookup.
 */
export function CompanyRegistryFill({ from, fill }: { from: string[]; fill: Record<string, keyof CompanyIdentity> }) {
  const button = useRef<HTMLButtonElement>(null);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [pending, start] = useTransition();

  const run = () => {
    const form = button.current?.form;
    if (!form) return;
    const input = (name: string) => form.elements.namedItem(name) as HTMLInputElement | null;
    const query = from.map((name) => input(name)?.value.trim() ?? '').find(Boolean) ?? '';
    start(async () => {
      const answer = await lookupCompanyAction(query);
      if (isRefusal(answer)) return setMessage({ ok: false, text: refusalMessage(answer) });
      if ('problem' in answer) return setMessage({ ok: false, text: answer.problem });
      for (const [name, key] of Object.entries(fill)) {
        const value = answer.company[key];
        const target = input(name);
        if (target && value) target.value = value;
      }
      setMessage({ ok: true, text: `Rempli depuis le registre : ${answer.company.legal_name}. Vérifiez puis enregistrez.` });
    });
  };

  return (
    <div className="registry-fill">
      <Button ref={button} small onClick={run} disabled={pending}>
        {pending ? 'Recherche…' : 'Remplir depuis le SIREN'}
      </Button>
      {message && (
        <span className={message.ok ? 'muted' : 'form-error'} role={message.ok ? 'status' : 'alert'}>
          {' '}
          {message.text}
        </span>
      )}
    </div>
  );
}
