/** Back-office navigation. A module not built yet is listed, greyed, so staff see what is coming. */
export interface NavItem {
  href: string;
  label: string;
  ready: boolean;
  /** A settings page that means something to the read-only role (« comptable »); the others are left out of its menu. */
  readable?: true;
}

export const NAV_SECTIONS: Array<{ title: string; items: NavItem[]; settings?: true }> = [
  {
    title: 'Activité',
    items: [
      { href: '/', label: 'Tableau de bord', ready: true },
      { href: '/contacts', label: 'Contacts', ready: true },
      { href: '/documents', label: 'Devis & factures', ready: true },
      { href: '/invoices/received', label: 'Factures reçues', ready: true },
      { href: '/products', label: 'Produits', ready: true },
      { href: '/reminders', label: 'Relances', ready: true },
      { href: '/exports', label: 'Exports comptables', ready: true },
      { href: '/recurring', label: 'Facturation récurrente', ready: true },
      { href: '/signature', label: 'Signature', ready: true },
    ],
  },
  {
    title: 'Réglages',
    settings: true,
    items: [
      { href: '/settings/organisation', label: 'Organisation', ready: true },
      { href: '/settings/team', label: 'Équipe', ready: true, readable: true },
      { href: '/settings/invoicing', label: 'Facturation', ready: true },
      { href: '/settings/einvoicing', label: 'Facturation électronique', ready: true },
      { href: '/settings/payments', label: 'Paiements', ready: true },
      { href: '/settings/api-keys', label: 'Clés API', ready: true },
      { href: '/settings/webhooks', label: 'Webhooks', ready: true },
      { href: '/docs/api', label: 'Référence API', ready: true, readable: true },
      { href: '/dev/mail', label: 'Boîte d’envoi (démo)', ready: true },
      { href: '/dev/sms', label: 'SMS envoyés (démo)', ready: true },
    ],
  },
];
