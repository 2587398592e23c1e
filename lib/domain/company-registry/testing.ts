import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local fake of the recherche-entreprises API's GET /search: the companies given, found by SIREN or by the SIRET
 * of one of their establishments, in the register's response shape. `delayMs` makes it slow, `status` makes it fail.
 */
export interface FakeRegistry {
  url: string;
  requests: string[];
  set(options: { delayMs?: number; status?: number }): void;
  close(): Promise<void>;
}

export const ATELIER = {
  siren: '732829320',
  nom_complet: 'ATELIER PARAPHE (AP)',
  nom_raison_sociale: 'ATELIER PARAPHE',
  nature_juridique: '5710',
  siege: { siret: '73282932000074', adresse: '12 RUE DE LA PAIX 75002 PARIS', code_postal: '75002', libelle_commune: 'PARIS' },
  matching_etablissements: [
    { siret: '73282932000074', adresse: '12 RUE DE LA PAIX 75002 PARIS', code_postal: '75002', libelle_commune: 'PARIS' },
    { siret: '73282932000116', adresse: '3 QUAI SAINT-VINCENT 69001 LYON', code_postal: '69001', libelle_commune: 'LYON' },
  ],
};

export async function startFakeRegistry(companies: Array<typeof ATELIER> = [ATELIER]): Promise<FakeRegistry> {
  let delayMs = 0;
  let status = 200;
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    requests.push(`${req.method} ${url.pathname}${url.search}`);
    const q = url.searchParams.get('q') ?? '';
    const results = url.pathname === '/search' ? companies.filter((c) => c.siren === q || c.matching_etablissements.some((e) => e.siret === q)) : [];
    setTimeout(() => {
      if (res.destroyed) return;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(status === 200 ? { results, total_results: results.length, page: 1, per_page: 5, total_pages: 1 } : { erreur: 'indisponible' }));
    }, delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    set(options) {
      delayMs = options.delayMs ?? 0;
      status = options.status ?? 200;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
