import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { PHONE, phoneOverflow, signIn } from './helpers';
import { newestMail, staffApi, uploadDocument } from './signature-setup';

/**
 * The signature back-office (issue 18 item 8): a draft made in the editor with an uploaded PDF and a second signer
 * added, a field dragged onto the rendered page, an approver who blocks the sending until they approve, then sent:
 * the first signer is invited by e-mail, the page shows each signer's status and the verified chain; on a phone.
 */
// Server actions answer with the page re-rendered: on this machine that can take seconds.
const slow = { timeout: 30_000 };

test('create with an upload, place a field, add a signer, approval blocks sending until approved, then send', async ({ page }) => {
  await signIn(page);
  await page.goto('/signature');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Signature électronique');
  await page.getByRole('link', { name: 'Nouvelle enveloppe' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Nouvelle enveloppe', slow);

  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const n of [1, 2]) pdf.addPage([595, 842]).drawText(`Contrat de maintenance — page ${n}`, { x: 60, y: 760, size: 20, font });
  await page.getByLabel('Fichier PDF').setInputFiles({ name: 'maintenance.pdf', mimeType: 'application/pdf', buffer: Buffer.from(await pdf.save()) });
  await page.getByLabel('Objet de l’e-mail').fill('Contrat de maintenance 2027');
  await page.getByLabel('Étiquettes').fill('maintenance');

  // A missing e-mail is refused beside its field; nothing is created.
  await page.getByRole('button', { name: 'Créer le brouillon' }).click();
  await expect(page.locator('#env-signers-0-email-error')).toBeVisible(slow);
  await page.locator('#env-signers-0-full_name').fill('Alice Martin');
  await page.locator('#env-signers-0-email').fill('alice.bo@exemple.fr');
  await page.getByRole('button', { name: 'Ajouter un signataire' }).click();
  await page.locator('#env-signers-1-full_name').fill('Bruno Petit');
  await page.locator('#env-signers-1-email').fill('bruno.bo@exemple.fr');
  await expect(page.locator('#env-signers-1-routing_order')).toHaveValue('2');
  await page.getByRole('button', { name: 'Créer le brouillon' }).click();

  await expect(page).toHaveURL(/\/signature\/[0-9a-f-]{36}$/, slow);
  const id = page.url().split('/').at(-1)!;
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Contrat de maintenance 2027');
  await expect(page.getByTestId('envelope-status')).toHaveText('brouillon');
  await expect(page.getByTestId('signer-status')).toHaveCount(2);
  await expect(page.getByTestId('chain-status')).toContainText('Chaîne vérifiée');

  // A signature field dragged from the palette onto page 2, for Alice (the palette's signer).
  const page2 = page.getByRole('region', { name: /Page 2/ });
  await expect(page2).toBeVisible(slow);
  await page.getByRole('button', { name: 'Signature', exact: true }).dragTo(page2, { targetPosition: { x: 200, y: 300 } });
  await expect(page2.getByTestId('placed-field')).toHaveCount(1);
  await page.getByRole('button', { name: 'Enregistrer les champs' }).click();
  await expect(page.getByText('1 champ enregistré.')).toBeVisible(slow);
  const fields = (await staffApi(page).get(`/v1/signature/envelopes/${id}/fields`)).data as Array<{ page: number; type: string; x: number; y: number }>;
  expect(fields.map((f) => [f.page, f.type])).toEqual([[2, 'signature']]);
  expect(fields[0]!.x).toBeGreaterThan(0);

  // The demo member as approver: sending is refused until they approve.
  // (A form whose button the new state removes goes with its confirmation: the page's state is what is checked.)
  await page.getByRole('button', { name: 'Ajouter l’approbateur' }).click();
  const approvers = page.getByRole('region', { name: 'Approbation avant envoi' });
  await expect(approvers.getByText('en attente')).toBeVisible(slow);
  await expect(page.getByText('Une approbation est attendue')).toBeVisible();
  await page.getByRole('button', { name: 'Envoyer aux signataires' }).click();
  await expect(page.getByText('attend encore une approbation')).toBeVisible(slow);
  await expect(page.getByTestId('envelope-status')).toHaveText('brouillon');

  await page.getByRole('button', { name: 'Approuver l’envoi' }).click();
  await expect(approvers.getByText(/approuvé le/)).toBeVisible(slow);
  await expect(page.getByText('Une approbation est attendue')).toHaveCount(0);
  await page.getByRole('button', { name: 'Envoyer aux signataires' }).click();
  await expect(page.getByTestId('envelope-status')).toHaveText('envoyée', slow);
  await page.reload();
  await expect(page.getByTestId('signer-status')).toHaveText(['invité', 'en attente de son tour']);
  await expect(page.getByTestId('chain-status')).toContainText('Chaîne vérifiée');
  await expect(page.locator('.timeline')).toContainText('Envoi approuvé');
  await expect(page.locator('.timeline')).toContainText('Enveloppe envoyée');

  // Alice's link, copied from the page, is the one she was e-mailed.
  await page.getByRole('button', { name: 'Copier le lien de Alice Martin <alice.bo@exemple.fr>' }).click();
  await expect(page.getByLabel('Lien de signature d’Alice Martin <alice.bo@exemple.fr>')).toBeVisible(slow);
  const link = await page.getByLabel('Lien de signature d’Alice Martin <alice.bo@exemple.fr>').inputValue();
  expect(link).toMatch(/\/sign\/[A-Za-z0-9_-]{43}$/);
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(violations.map((v) => v.id)).toEqual([]);
  const mail = await newestMail(page, 'alice.bo@exemple.fr', /Contrat de maintenance 2027|signer|signature/i);
  expect(mail).toContain(link);

  // The list finds it by label and by a signer's e-mail; on a phone nothing sticks out sideways.
  await page.setViewportSize(PHONE);
  await page.goto('/signature?label=maintenance&q=bruno.bo');
  await expect(page.locator(`main a[href="/signature/${id}"]`)).toHaveText('Contrat de maintenance 2027');
  expect((await phoneOverflow(page)).wider).toEqual([]);
  await page.goto(`/signature/${id}`);
  await expect(page.getByTestId('envelope-status')).toHaveText('envoyée');
  expect((await phoneOverflow(page)).wider).toEqual([]);
});

/**
 * The placer draws the document (issue 35 item 1: its canvases stayed 300×150 and blank, fields placed blind): every
 * page drawn at the column's width, then a field dropped on page 2 lands where it was dropped, at 1440 px and on a
 * phone; axe finds nothing on the page.
 */
for (const viewport of [{ width: 1440, height: 900 }, PHONE]) {
  test(`the field placer draws every page and places a field where it is dropped (${viewport.width} px)`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await signIn(page);
    const api = staffApi(page);
    const documentId = await uploadDocument(page, `Bon de commande ${viewport.width}`);
    const draft = (await api.post('/v1/signature/envelopes', {
      source_kind: 'document',
      source_document_id: documentId,
      signers: [{ email: `placer.${viewport.width}@client.test`, full_name: 'Paula Placer', verification_method: 'none' }],
    })) as { id: string; signers: Array<{ id: string }> };
    await page.goto(`/signature/${draft.id}`);
    await expect(page.getByRole('heading', { level: 2, name: 'Champs à remplir' })).toBeVisible();

    // Both pages drawn: a canvas of the page's width (not the 300×150 of an untouched one), with the text's dark
    // pixels on it (an untouched canvas is transparent, a white one has none).
    const canvases = page.locator('.placer-page canvas');
    await expect(canvases).toHaveCount(2, slow);
    const undrawn = () =>
      canvases.evaluateAll((list) =>
        (list as HTMLCanvasElement[]).flatMap((canvas, i) => {
          const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
          let dark = 0;
          for (let p = 0; p < data.length; p += 4) if (data[p + 3]! > 200 && data[p]! < 100 && data[p + 1]! < 100 && data[p + 2]! < 100) dark++;
          const ratio = canvas.height / canvas.width;
          const ok = canvas.width > 300 && canvas.width >= Math.floor(canvas.clientWidth) && Math.abs(ratio - 842 / 595) < 0.01 && dark > 100;
          return ok ? [] : [`page ${i + 1}: ${canvas.width}×${canvas.height}, ${dark} dark pixels`];
        }),
      );
    await expect.poll(undrawn, slow).toEqual([]);
    await expect(page.locator('.placer-pages')).toHaveAttribute('aria-busy', 'false');
    await expect(page.getByText('Le document n’a pas pu être affiché')).toHaveCount(0);

    // A signature dragged onto page 2, at 40 % of its width and 55 % of its height: its box is centred there.
    const page2 = page.getByRole('region', { name: /Page 2/ });
    await page2.scrollIntoViewIfNeeded();
    const box = (await page2.boundingBox())!;
    const at = { x: 0.4, y: 0.55 };
    await page.getByRole('button', { name: 'Signature', exact: true }).dragTo(page2, { targetPosition: { x: box.width * at.x, y: box.height * at.y } });
    await expect(page2.getByTestId('placed-field')).toHaveCount(1);
    await page.getByRole('button', { name: 'Enregistrer les champs' }).click();
    await expect(page.getByText('1 champ enregistré.')).toBeVisible(slow);

    const fields = (await api.get(`/v1/signature/envelopes/${draft.id}/fields`)).data as Array<{ page: number; type: string; signer_id: string; x: number; y: number; width: number; height: number }>;
    expect(fields.map((f) => [f.page, f.type, f.signer_id])).toEqual([[2, 'signature', draft.signers[0]!.id]]);
    const field = fields[0]!;
    expect(Math.abs(field.x + field.width / 2 - at.x)).toBeLessThan(0.02);
    expect(Math.abs(field.y + field.height / 2 - at.y)).toBeLessThan(0.02);

    const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    expect(violations.flatMap((v) => v.nodes.map((n) => `${v.id} ${n.target.join(' ')}`))).toEqual([]);
    if (viewport.width === PHONE.width) expect((await phoneOverflow(page)).wider).toEqual([]);
  });
}
