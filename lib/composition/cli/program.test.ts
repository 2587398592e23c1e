import { describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { verifyApiKey } from '@/lib/platform/auth';
import { authenticateUser, listUserOrgs } from '@/lib/platform/orgs';
import { runCli } from './program';

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { db: getDb, out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('CLI', () => {
  it('creates an org with its legal identity, a user and a key that authenticates', async () => {
    const org = await cli('orgs:create', '--name', 'Boulangerie Dupont', '--legal-form', 'SARL', '--share-capital', '7 500,50', '--siren', '552 100 554', '--siret', '55210055400013', '--json');
    expect(org.code).toBe(0);
    const created = JSON.parse(org.out);
    expect(created).toMatchObject({ name: 'Boulangerie Dupont', legal_form: 'SARL', share_capital_cents: 750_050, siren: '552100554', country: 'FR' });

    const user = await cli('users:create', '--org', created.id, '--email', 'Boulanger@Example.fr', '--password', 'correct horse battery', '--role', 'admin', '--json');
    expect(user.code).toBe(0);
    const db = await getDb();
    const signedIn = await authenticateUser(db, 'boulanger@example.fr', 'correct horse battery');
    expect(signedIn).not.toBeNull();
    expect(await listUserOrgs(db, signedIn!.id)).toEqual([{ id: created.id, name: 'Boulangerie Dupont', role: 'admin' }]);

    const key = await cli('api-keys:create', '--org', created.id, '--scopes', 'contacts:read,invoice:write', '--json');
    expect(key.code).toBe(0);
    const { key: token, id, scopes } = JSON.parse(key.out);
    expect(token).toMatch(/^paraphe_pk_live_[0-9A-Za-z]{32}$/);
    expect(scopes).toEqual(['contacts:read', 'invoice:write']);
    expect(await verifyApiKey(db, token)).toMatchObject({ orgId: created.id, keyId: id });

    const revoked = await cli('api-keys:revoke', '--id', id);
    expect(revoked.code).toBe(0);
    expect(await verifyApiKey(db, token)).toBeNull();
  });

  it('refuses bad arguments with one clear line and a non-zero exit', async () => {
    const badSiret = await cli('orgs:create', '--name', 'X', '--siret', '123');
    expect(badSiret.code).toBe(1);
    expect(badSiret.err).toMatch(/^error: siret: SIRET must be 14 digits\.$/);

    const badScope = await cli('api-keys:create', '--org', '0190a0a0-0000-7000-8000-000000000000', '--scopes', 'everything');
    expect(badScope.code).toBe(1);

    const unknownOrg = await cli('api-keys:create', '--org', '0190a0a0-0000-7000-8000-000000000000', '--scopes', 'all');
    expect(unknownOrg.code).toBe(1);
    expect(unknownOrg.err).toContain('Organisation not found');

    const missing = await cli('orgs:create');
    expect(missing.code).toBe(2);
    expect(missing.err).toContain("required option '--name <name>' not specified");

    const shortPassword = await cli('users:create', '--org', '0190a0a0-0000-7000-8000-000000000000', '--email', 'a@b.fr', '--password', 'short');
    expect(shortPassword.code).toBe(1);
  });
});
