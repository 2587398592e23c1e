import Link from 'next/link';

/** The signature section's two lists. */
export function SignatureTabs({ current }: { current: 'envelopes' | 'templates' }) {
  return (
    <nav className="toolbar" aria-label="Signature">
      <Link className="chip" href="/signature" aria-current={current === 'envelopes' ? 'true' : undefined}>
        Enveloppes
      </Link>
      <Link className="chip" href="/signature/templates" aria-current={current === 'templates' ? 'true' : undefined}>
        Modèles
      </Link>
    </nav>
  );
}
