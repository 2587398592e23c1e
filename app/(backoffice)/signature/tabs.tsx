import { ChipLink } from '@/components/ui';

/** The signature section's lists: envelopes, templates, public forms, bulk sends. */
export function SignatureTabs({ current }: { current: 'envelopes' | 'templates' | 'forms' | 'bulk' }) {
  return (
    <nav className="toolbar" aria-label="Signature">
      <ChipLink href="/signature" current={current === 'envelopes'}>
        Enveloppes
      </ChipLink>
      <ChipLink href="/signature/templates" current={current === 'templates'}>
        Modèles
      </ChipLink>
      <ChipLink href="/signature/forms" current={current === 'forms'}>
        Formulaires
      </ChipLink>
      <ChipLink href="/signature/bulk" current={current === 'bulk'}>
        Envoi groupé
      </ChipLink>
    </nav>
  );
}
