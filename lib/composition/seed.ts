import { randomBytes } from 'node:crypto';
import { count, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { orgs } from '@/db/schema';
import { createApiKey, SCOPES } from '@/lib/platform/auth';
import { addMembership, createOrg, createUser } from '@/lib/platform/orgs';

export interface DemoCredentials {
  orgId: string;
  email: string;
  password: string;
  apiKey: string;
}

/**
 * On an empty database: a demo org with a plausible French legal identity, its owner and a full-scope API
 * key. Returns the credentials (to print once) or null when the database already has an org.
 * DEMO_EMAIL / DEMO_PASSWORD fix the login (the e2e journeys use them); otherwise the password is random.
 */
export async function seedDemo(db: Db): Promise<DemoCredentials | null> {
  // Several app processes may start at once on an empty database: one seeds, the others wait and find an org.
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(727275)`);
    const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(orgs);
    if (n > 0) return null;
    return seed(tx);
  });
}

async function seed(db: Db): Promise<DemoCredentials> {
  const org = await createOrg(db, {
    name: 'Atelier Lumière',
    legal_name: 'Atelier Lumière SAS',
    legal_form: 'SAS',
    share_capital_cents: 1_000_000,
    siren: '732829320',
    siret: '73282932000074',
    vat_number: 'FR44732829320',
    rcs: 'RCS Paris 732 829 320',
    address: '12 rue de la Paix',
    postal_code: '75002',
    city: 'Paris',
    country: 'FR',
    email: 'contact@atelier-lumiere.fr',
    phone: '+33 1 42 00 00 00',
  });
  const email = process.env.DEMO_EMAIL ?? 'demo@paraphe.test';
  const password = process.env.DEMO_PASSWORD ?? randomBytes(12).toString('base64url');
  const user = await createUser(db, { email, password, name: 'Camille Martin' });
  await addMembership(db, org.id, user.id, 'owner');
  const { key } = await createApiKey(db, org.id, { name: 'Demo key', scopes: [...SCOPES] }, user.id);
  return { orgId: org.id, email, password, apiKey: key };
}

export function formatCredentials(c: DemoCredentials, baseUrl: string): string {
  return [
    '',
    '┌─ Paraphe demo ready ─────────────────────────────────────────────',
    `│ Back-office : ${baseUrl}/login`,
    `│ E-mail      : ${c.email}`,
    `│ Password    : ${c.password}`,
    `│ API key     : ${c.apiKey}`,
    `│ Try it      : curl -H "Authorization: Bearer ${c.apiKey}" ${baseUrl}/v1/events`,
    '│ These are shown once. Lost them? npm run cli -- api-keys:create / users:create',
    '└──────────────────────────────────────────────────────────────────',
    '',
  ].join('\n');
}
