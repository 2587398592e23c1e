import { eq } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { einvoicingEnrollments, invoiceSettings } from '@/db/schema';
import { forgetTokens, getEnrollment } from '@/lib/domain/einvoicing';
import { SANDBOX_SECRET, sandboxPaFixture } from '@/lib/domain/einvoicing/testing';
import { createActionWrappers, initialFormState, type StaffSession } from '@/lib/platform/next';
import { readPdpConfig } from '@/lib/domain/invoice-settings';
import { addMembership, createUser } from '@/lib/platform/orgs';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { ADMIN_ONLY, enroll, savePlatform, testPlatform } from './handlers';

// Réglages → Facturation électronique's actions are these handlers in the action wrapper, run here under a given session.
let session: StaffSession = null;
const { formAction, staffAction } = createActionWrappers(async () => session);
const saveAction = formAction(savePlatform, { adminOnly: ADMIN_ONLY });
const enrollAction = formAction(enroll, { adminOnly: ADMIN_ONLY });
const testAction = staffAction(testPlatform, { adminOnly: ADMIN_ONLY });
const sandbox = sandboxPaFixture();

let org: TestOrg;
const users = { owner: '', member: '' };
const form = (entries: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(entries)) f.append(k, v);
  return f;
};
const settingsRow = async () => (await org.db.select().from(invoiceSettings).where(eq(invoiceSettings.org_id, org.org.id)))[0]!;

beforeAll(async () => {
  org = await createTestOrg();
  for (const role of ['owner', 'member'] as const) {
    users[role] = (await createUser(org.db, { email: `${role}-${org.org.id}@example.fr`, password: 'long enough password' })).id;
    await addMembership(org.db, org.org.id, users[role], role);
  }
});
beforeEach(() => {
  sandbox.pa.state.reset();
  forgetTokens();
});
const as = (who: keyof typeof users) => {
  session = { userId: users[who], orgId: org.org.id };
};

describe('Réglages → Facturation électronique', () => {
  it('saves the PA connection with its secret sealed; a blank secret keeps it; the other settings are untouched', async () => {
    as('owner');
    await org.db.insert(invoiceSettings).values({ org_id: org.org.id, facture_prefix: 'FX' }).onConflictDoNothing();
    const saved = await saveAction(initialFormState as never, form({ base_url: sandbox.url, token_url: '', client_id: 'bo-client', client_secret: SANDBOX_SECRET, einvoicing_enabled: 'on' }));
    expect(saved.done, JSON.stringify(saved)).toBe('Plateforme agréée enregistrée.');
    const row = await settingsRow();
    expect([row.einvoicing_enabled, row.facture_prefix, JSON.stringify(row.pdp_config).includes(SANDBOX_SECRET)]).toEqual([true, 'FX', false]);
    const again = await saveAction(initialFormState as never, form({ base_url: sandbox.url, token_url: '', client_id: 'bo-client-2', client_secret: '', einvoicing_enabled: 'on' }));
    expect(again.done).toBeDefined();
    expect(readPdpConfig((await settingsRow()).pdp_config)).toMatchObject({ client_id: 'bo-client-2', client_secret: SANDBOX_SECRET });
  });

  it('refuses an invalid URL in French on its field; a member may not change anything', async () => {
    as('owner');
    // ftp: refused even under EINVOICING_ALLOW_PRIVATE (which this file's sandbox PA sets, and which lets http pass).
    const bad = await saveAction(initialFormState as never, form({ base_url: 'ftp://pa.example.fr', client_id: 'x', client_secret: 'y' }));
    expect(bad.errors?.['pdp_config.base_url']).toBe('L’adresse doit commencer par https://.');
    const query = await saveAction(initialFormState as never, form({ base_url: 'https://pa.example.fr/?x=1', client_id: 'x', client_secret: 'y' }));
    expect(query.errors?.['pdp_config.base_url']).toBe('L’adresse ne doit contenir ni paramètre (?…) ni ancre (#…).');
    as('member');
    expect((await saveAction(initialFormState as never, form({ base_url: '' }))).error).toBe(ADMIN_ONLY);
  });

  it('enrolls in the directory through the PA with the organisation’s identity; a refusal is shown in French', async () => {
    as('owner');
    await saveAction(initialFormState as never, form({ base_url: sandbox.url, client_id: `bo-${org.org.id}`, client_secret: SANDBOX_SECRET }));
    const refused = await enrollAction(initialFormState as never, form({ siren: '422000000' }));
    expect(refused.error).toBe('La plateforme agréée a refusé l’inscription à l’annuaire.');
    expect((await getEnrollment(org.db, org.org.id)).status).toBe('failed');
    const bad = await enrollAction(initialFormState as never, form({ siren: '123' }));
    expect(bad.errors?.siren).toBe('SIREN invalide : 9 chiffres dont une clé de contrôle valide.');
    const done = await enrollAction(initialFormState as never, form({}));
    expect(done.done).toBe('Inscription confirmée : votre adresse de facturation électronique est 0225:732829320.');
    const [row] = await org.db.select().from(einvoicingEnrollments).where(eq(einvoicingEnrollments.org_id, org.org.id));
    expect([row!.status, row!.siret]).toEqual(['enrolled', '73282932000074']);
  });

  it('« Tester la connexion » tries what is typed, says each step in French, and stores nothing', async () => {
    as('owner');
    const before = (await settingsRow()).pdp_config;
    const ok = await testAction({ base_url: sandbox.url, token_url: '', client_id: 'bo-test', client_secret: 'typed-secret-0002' });
    expect(ok).toEqual({
      ok: true,
      summary: `Connexion réussie à ${sandbox.url} : le jeton, le service Flow et l’annuaire répondent. Enregistrez pour la garder.`,
      checks: [
        { step: 'token', label: 'Jeton OAuth (identifiant et secret client)', outcome: 'ok', text: 'répond' },
        { step: 'flow', label: 'Service Flow (dépôt et suivi des factures)', outcome: 'ok', text: 'répond' },
        { step: 'directory', label: 'Service Annuaire', outcome: 'ok', text: 'répond' },
      ],
    });
    expect((await settingsRow()).pdp_config).toEqual(before);
    sandbox.pa.state.switches.down = true;
    const down = await testAction({ base_url: sandbox.url, client_id: 'bo-test', client_secret: '' });
    expect(down).toMatchObject({
      ok: false,
      summary: 'La connexion a échoué : Service Flow (dépôt et suivi des factures) — erreur de la plateforme (HTTP 503) : réessayez plus tard. Rien n’a été enregistré.',
    });
    const bad = await testAction({ base_url: 'https://pa.example.fr/?x=1', client_id: 'x', client_secret: 'y' });
    expect(bad).toMatchObject({ refused: true, errors: { 'pdp_config.base_url': 'L’adresse ne doit contenir ni paramètre (?…) ni ancre (#…).' } });
    as('member');
    expect(await testAction({ base_url: sandbox.url, client_id: 'x', client_secret: 'y' })).toMatchObject({ refused: true, error: ADMIN_ONLY });
  });
});
