import Link from 'next/link';

/** The signature section's lists: envelopes, templates, public forms, bulk sends. */
export function SignatureTabs({ current }: { current: 'envelopes' | 'templates' | 'forms' | 'bulk' }) {
  return (
    <nav className="toolbar" aria-label="Signature">
      <Link className="chip" href="/signature" aria-current={current === 'envelopes' ? 'true' : undefined}>
        Enveloppes
      </Link>
      <Link className="chip" href="/signature/templates" aria-current={current === 'templates' ? 'true' : undefined}>
        Modèles
      </Link>
      <Link className="chip" href="/signature/forms" aria-current={current === 'forms' ? 'true' : undefined}>
        Formulaires
      </Link>
      <Link className="chip" href="/signature/bulk" aria-current={current === 'bulk' ? 'true' : undefined}>
        Envoi groupé
      </Link>
    </nav>
  );
}
