import { expect, test } from '@playwright/test';
import { PHONE, rememberSecret, signIn } from './helpers';
import { expectAccessible, newestMail } from './signature-setup';

/*
 * Issue 35 item 17: an admin invites a comptable by e-mail; the comptable accepts (without JavaScript), signs in,
 * sees the documents and the exports, finds no button that changes anything, and a write is refused. At 1440 and
 * 390 px: every page of the walk axe clean, nothing wider than the phone (expectAccessible).
 */
for (const [size, viewport] of [
  ['1440', { width: 1440, height: 900 }],
  ['390', { ...PHONE, isMobile: true }],
] as const) {
  test(`invite a comptable, who accepts, signs in, reads and downloads, and changes nothing — at ${size} px`, async ({ browser }) => {
    // Five axe runs on top of the walk: more than the default minute on a loaded machine.
    test.setTimeout(150_000);
    const { isMobile = false, ...screen } = viewport as typeof viewport & { isMobile?: boolean };
    const device = { viewport: screen, isMobile, hasTouch: isMobile, locale: 'fr-FR' };
    const admin = await browser.newContext(device);
    const page = await admin.newPage();
    const email = `comptable-${size}-${Date.now()}@example.fr`;
    const password = 'comptable-password-42';
    rememberSecret(password);

    await signIn(page);
    await page.goto('/settings/team');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Rôle').selectOption('accountant');
    await page.getByRole('button', { name: 'Inviter' }).click();
    await expect(page.getByText(`Invitation envoyée à ${email}.`)).toBeVisible();
    await expect(page.getByRole('table', { name: 'Invitations en attente' }).getByText(email)).toBeVisible();
    await expectAccessible(page, `${size} /settings/team (admin)`);

    const text = await newestMail(page, email, /vous invite/);
    const link = /https?:\/\/\S+\/invitation\/[A-Za-z0-9_-]{43}/.exec(text)?.[0];
    expect(link, `an /invitation link in:\n${text}`).toBeTruthy();
    rememberSecret(link!.split('/invitation/')[1]!);

    // The invitation page as it opens (with JavaScript: axe runs in the page; opening it does not use the link).
    const look = await browser.newContext(device);
    const invitation = await look.newPage();
    await invitation.goto(new URL(link!).pathname);
    await expect(invitation.getByRole('heading', { level: 1 })).toContainText('Rejoindre');
    await expectAccessible(invitation, `${size} /invitation/[token]`);
    await look.close();

    // The comptable: another browser, no JavaScript for the acceptance.
    const noScript = await browser.newContext({ ...device, javaScriptEnabled: false });
    const invited = await noScript.newPage();
    const res = await invited.goto(new URL(link!).pathname);
    expect(res?.headers()['referrer-policy']).toBe('no-referrer');
    await expect(invited.getByRole('heading', { level: 1 })).toContainText('Rejoindre');
    await invited.getByLabel('Mot de passe', { exact: true }).fill(password);
    await invited.getByLabel('Mot de passe, à nouveau').fill(password);
    await invited.getByRole('button', { name: 'Accepter l’invitation' }).click();
    await expect(invited).toHaveURL(/\/login/);
    // Used once: the link no longer works.
    await invited.goto(new URL(link!).pathname);
    await expect(invited.getByRole('heading', { level: 1 })).toHaveText('Invitation indisponible');
    await noScript.close();

    const context = await browser.newContext(device);
    const comptable = await context.newPage();
    await comptable.goto('/login');
    await comptable.getByLabel('E-mail').fill(email);
    await comptable.getByLabel('Mot de passe').fill(password);
    await comptable.getByRole('button', { name: 'Se connecter' }).click();
    await expect(comptable.getByTestId('read-only-notice')).toBeVisible();

    // Documents: listed, no creation button.
    await comptable.goto('/documents');
    await expect(comptable.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(comptable.getByRole('link', { name: /Nouvelle facture|Nouveau devis/ })).toHaveCount(0);
    await expectAccessible(comptable, `${size} /documents (comptable)`);

    // Exports: the presets, the downloads; the accounts shown but not editable.
    await comptable.goto('/exports');
    await comptable.getByRole('link', { name: 'Trimestre dernier' }).click();
    await expect(comptable.getByRole('link', { name: 'Trimestre dernier' })).toHaveAttribute('aria-current', 'true');
    await expect(comptable.getByRole('link', { name: 'Écritures comptables (FEC)' })).toBeVisible();
    await expect(comptable.getByRole('button', { name: 'Enregistrer les comptes' })).toHaveCount(0);
    await expectAccessible(comptable, `${size} /exports (comptable)`);
    const csv = await comptable.request.get(`/exports/paiements.csv${new URL(comptable.url()).search}`);
    expect(csv.status()).toBe(200);
    expect(csv.headers()['content-disposition']).toMatch(/^attachment; filename="paiements-/);

    // Settings → Équipe: no invitation form for the comptable; its menu leaves out the settings it cannot change.
    await comptable.goto('/settings/team');
    // On a phone the menu folds under « Menu »: opened, it shows the same settings.
    if (isMobile) await comptable.getByText('Menu', { exact: true }).click();
    const settingsNav = comptable.getByRole('navigation', { name: 'Réglages' });
    await expect(settingsNav.getByRole('link', { name: 'Équipe' })).toBeVisible();
    await expect(settingsNav.getByRole('link', { name: 'Clés API' })).toHaveCount(0);
    await expect(settingsNav.getByRole('link', { name: 'Facturation', exact: true })).toHaveCount(0);
    await expect(comptable.getByRole('button', { name: 'Inviter' })).toHaveCount(0);
    await expectAccessible(comptable, `${size} /settings/team (comptable)`);

    // A write with the comptable's session is refused: 403 {code, message}.
    const write = await comptable.request.post('/v1/contacts', { data: { company: 'Pas le droit SARL' }, headers: { Origin: new URL(comptable.url()).origin } });
    expect(write.status()).toBe(403);
    expect(await write.json()).toMatchObject({ code: 'forbidden', message: expect.stringMatching(/read-only/) });
    const read = await comptable.request.get('/v1/invoices');
    expect(read.status()).toBe(200);
    await context.close();
    await admin.close();
  });
}

