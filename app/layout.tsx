import type { Metadata } from 'next';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'Paraphe', template: '%s · Paraphe' },
  description: 'Devis, factures, paiements et signature électronique pour les entreprises françaises.',
};

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="fr">
      <body>{children}</body>
    </html>
  );
}
