/**
 * Deterministic, plausible French contacts for the benches: common first and last names (with accents),
 * businesses for a third of them, e-mails on a few domains, French postal codes and cities. Row `n` is
 * always the same contact, and its e-mail is unique (it carries `n` and the batch tag).
 */
const FIRST = ['Jeanne', 'Élodie', 'Camille', 'Léa', 'Chloé', 'Manon', 'Inès', 'Sarah', 'Zoé', 'Anaïs', 'Céline', 'Hélène', 'Sophie', 'Marie', 'Noémie', 'Jean', 'Lucas', 'Hugo', 'Louis', 'Gabriel', 'Théo', 'Raphaël', 'Arthur', 'Jérôme', 'François', 'Loïc', 'Benoît', 'Stéphane', 'Mathis', 'Paul'];
const LAST = ['Martin', 'Bernard', 'Dubois', 'Thomas', 'Robert', 'Richard', 'Petit', 'Durand', 'Leroy', 'Moreau', 'Simon', 'Laurent', 'Lefèvre', 'Michel', 'Garcia', 'David', 'Bertrand', 'Roux', 'Vincent', 'Fournier', 'Morel', 'Girard', 'André', 'Mercier', 'Dupré', 'Lambert', 'Bonnet', 'François', 'Martínez', 'Légaré', 'Chevalier', 'Rousseau', 'Blanc', 'Guérin', 'Faure', 'Clément', 'Gauthier', 'Perrin', 'Morin', 'Muller'];
const TRADES = ['Boulangerie', 'Menuiserie', 'Plomberie', 'Garage', 'Cabinet', 'Atelier', 'Pharmacie', 'Fromagerie', 'Électricité', 'Librairie', 'Traiteur', 'Paysagiste'];
const FORMS = ['SARL', 'SAS', 'EURL', 'SASU', ''];
const DOMAINS = ['gmail.com', 'orange.fr', 'free.fr', 'laposte.net', 'outlook.fr', 'wanadoo.fr'];
const CITIES: Array<[string, string]> = [['75011', 'Paris'], ['69003', 'Lyon'], ['13006', 'Marseille'], ['31000', 'Toulouse'], ['33000', 'Bordeaux'], ['44000', 'Nantes'], ['59000', 'Lille'], ['67000', 'Strasbourg'], ['35000', 'Rennes'], ['34000', 'Montpellier']];
const STATUSES = ['new', 'qualified', 'contacted', 'won', 'lost', null] as const;

const ascii = (s: string) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();

export function fakeContact(n: number, batch: string): Record<string, unknown> {
  const first = FIRST[n % FIRST.length]!;
  const last = LAST[Math.floor(n / FIRST.length) % LAST.length]!;
  const [postal, city] = CITIES[n % CITIES.length]!;
  const business = n % 3 === 0;
  const company = business ? `${TRADES[n % TRADES.length]} ${last} ${FORMS[n % FORMS.length]}`.trim() : null;
  return {
    type: business ? 'professionnel' : 'particulier',
    first_name: first,
    last_name: last,
    company,
    email: `${ascii(first)}.${ascii(last)}.${batch}${n}@${DOMAINS[n % DOMAINS.length]}`,
    phone: `06 ${String(n % 100).padStart(2, '0')} ${String((n * 7) % 100).padStart(2, '0')} ${String((n * 13) % 100).padStart(2, '0')} ${String((n * 31) % 100).padStart(2, '0')}`,
    address: `${(n % 120) + 1} rue de la République`,
    postal_code: postal,
    city,
    siret: business ? String(10_000_000_000_000 + n * 7919).slice(0, 14) : null,
    lead_status: STATUSES[n % STATUSES.length],
    lead_score: n % 101,
    tags: n % 5 === 0 ? ['salon-2026', 'vip'] : ['newsletter'],
    marketing_consent: n % 4 === 0 ? true : null,
    consent_source: n % 4 === 0 ? 'formulaire web' : null,
    legal_basis: n % 4 === 0 ? 'consent' : null,
  };
}

/** Median and nearest-rank percentile of samples (ms). */
export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
