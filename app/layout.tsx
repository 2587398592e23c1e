import type { Metadata } from 'next';
import { connection } from 'next/server';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'Paraphe', template: '%s · Paraphe' },
  description: 'Devis, factures, paiements et signature électronique pour les entreprises françaises.',
};

// Every page renders per request: its scripts carry that request's CSP nonce (proxy.ts), a prerendered page's could not.
export default async function RootLayout({ children }: { children: React.ReactNode }) {
  await connection();
  return (
    <html lang="fr">
      <body>{children}</body>
    </html>
  );
}
