import { expect, test } from '@playwright/test';
import { signIn } from './helpers';
import { codeFor, drawSignature, envelopeReaches, expectAccessible, linkIn, mailCount, newestMail, signerPage, staffApi, uploadDocument } from './signature-setup';

/*
 * Issue 18: a two-signer sequential envelope with an approver, end to end in Chromium. Staff make it through /v1
 * (a text field and a requested document for the first signer), cannot send it before the approver approves; the
 * first signer opens the link from the request e-mail on a phone, consents, verifies the code read from the outbox,
 * fills the field, uploads the document, draws a signature; only then is the second signer e-mailed, who signs in
 * English with a typed name. The envelope completes and its signed PDF and proof are there.
 */
test('sequential: approver, then signer 1 (code, field, upload, drawn) then signer 2 (English, typed) → completed', async ({ page, browser }) => {
  test.setTimeout(120_000);
  await signIn(page);
  const api = staffApi(page);
  const { userId } = (await (await page.request.get('/api/auth/session')).json()) as { userId: string };
  const documentId = await uploadDocument(page, 'Contrat de maintenance');
  const first = 'lea.sequence@client.test';
  const second = 'bob.sequence@client.test';
  const envelope = (await api.post('/v1/signature/envelopes', {
    source_kind: 'document',
    source_document_id: documentId,
    subject: 'Contrat de maintenance 2027',
    message: 'Merci de signer le contrat.',
    sender_name: 'Atelier Lumière',
    signers: [
      { email: first, full_name: 'Léa Martin', routing_order: 0, verification_method: 'email_otp' },
      { email: second, full_name: 'Bob Smith', routing_order: 1, verification_method: 'email_otp' },
    ],
  })) as { id: string; signers: Array<{ id: string; email: string }> };
  const [lea, bob] = envelope.signers;
  const base = `/v1/signature/envelopes/${envelope.id}`;
  await api.put(`${base}/fields`, {
    fields: [
      { signer_id: lea!.id, type: 'text', page: 1, x: 0.1, y: 0.2, width: 0.4, height: 0.04, required: true, label: 'Référence client' },
      { signer_id: lea!.id, type: 'signature', page: 2, x: 0.1, y: 0.7, width: 0.35, height: 0.08, required: true, label: null },
      { signer_id: bob!.id, type: 'signature', page: 2, x: 0.55, y: 0.7, width: 0.35, height: 0.08, required: true, label: null },
    ],
  });
  await api.put(`${base}/requested-documents`, {
    requested_documents: [{ signer_id: lea!.id, label: 'Extrait Kbis', description: 'De moins de trois mois.', required: true }],
  });

  // The approver blocks sending until they approve.
  await api.post(`${base}/approvers`, { user_id: userId });
  const early = await api.send('POST', `${base}/send`);
  expect(early.status).toBe(409);
  expect(early.body.code).toBe('approval_pending');
  await api.post(`${base}/approve`, {});
  await api.post(`${base}/send`);
  expect(await mailCount(page, second)).toBe(0);

  // Signer 1, on a phone, from the e-mail.
  const leaUrl = linkIn(await newestMail(page, first, /Contrat de maintenance 2027/));
  const signer = await signerPage(browser);
  await signer.goto(leaUrl);
  await expect(signer.getByRole('heading', { level: 1 })).toHaveText('Contrat de maintenance 2027');
  await expect(signer.getByText('Atelier Lumière vous invite à signer')).toBeVisible();
  await expect(signer.getByRole('img', { name: 'Page 2 sur 2' })).toBeVisible();
  await expect(signer.getByRole('status').filter({ hasText: 'Affichage du document' })).toHaveCount(0);
  await expectAccessible(signer, 'signer 1 on opening');
  await expect(signer.getByRole('button', { name: 'Signer le document' })).toBeDisabled();

  await signer.getByLabel('J’ai lu ce texte et j’accepte de signer électroniquement.').check();
  await signer.getByRole('button', { name: 'Accepter et continuer' }).click();
  await expect(signer.getByText('Consentement donné.')).toBeVisible();
  await signer.getByRole('button', { name: 'Recevoir le code' }).click();
  // Where it went, masked.
  await expect(signer.getByText('Code envoyé à l•••@client.test. Il est valable 10 minutes.')).toBeVisible();
  const code = await codeFor(page, first);
  await signer.getByLabel('Code à 6 chiffres').fill(code);
  await signer.getByRole('button', { name: 'Vérifier le code' }).click();
  await expect(signer.getByText('Identité vérifiée.')).toBeVisible();

  // The field's box on page 1 leads to its input.
  await signer.getByRole('button', { name: 'Référence client (page 1)' }).click();
  const reference = signer.getByRole('textbox', { name: /Référence client/ });
  await expect(reference).toBeFocused();
  await reference.fill('CLI-2027-042');
  await reference.blur();
  await expect(signer.getByRole('button', { name: 'Référence client (page 1)' })).toContainText('CLI-2027-042');
  await signer.getByLabel('Fichier : Extrait Kbis').setInputFiles({ name: 'kbis.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n%kbis\n') });
  await signer.getByRole('button', { name: 'Envoyer le fichier' }).click();
  await expect(signer.getByText('Reçu : kbis.pdf')).toBeVisible();

  await signer.getByLabel('Dessiner').check();
  await drawSignature(signer);
  await expectAccessible(signer, 'signer 1 ready to sign');
  await signer.getByRole('button', { name: 'Signer le document' }).click();
  await expect(signer.getByRole('heading', { level: 1, name: 'Document signé' })).toBeVisible();
  await expectAccessible(signer, 'signer 1 signed');
  // Their link is spent.
  expect((await signer.request.get(`/api/sign/${leaUrl.split('/sign/')[1]}`)).status()).toBe(410);
  await signer.context().close();

  // Signer 2's turn: e-mailed only now; on a desktop, in English, typed name.
  const bobUrl = linkIn(await newestMail(page, second, /Contrat de maintenance 2027/));
  const english = await signerPage(browser, { viewport: { width: 1280, height: 900 } });
  await english.goto(bobUrl);
  await english.getByRole('link', { name: 'English' }).click();
  await expect(english.getByText('Atelier Lumière invites you to sign')).toBeVisible();
  await expect(english).toHaveURL(/\?lang=en$/);
  await english.getByLabel('I have read this text and agree to sign electronically.').check();
  await english.getByRole('button', { name: 'Accept and continue' }).click();
  await english.getByRole('button', { name: 'Get the code' }).click();
  await english.getByLabel('6-digit code').fill(await codeFor(page, second));
  await english.getByRole('button', { name: 'Verify the code' }).click();
  await expect(english.getByText('Identity verified.')).toBeVisible();
  await expect(english.getByLabel('Your name, as it will appear')).toHaveValue('Bob Smith');
  await expectAccessible(english, 'signer 2 in English');
  await english.getByRole('button', { name: 'Sign the document' }).click();
  await expect(english.getByRole('heading', { level: 1, name: 'Document signed' })).toBeVisible();
  await english.context().close();

  // Completed: signed PDF and proof available to staff, every event in the chain.
  const done = await envelopeReaches(page, envelope.id, 'completed');
  expect(done.signers.map((s) => s.status)).toEqual(['signed', 'signed']);
  await expect.poll(async () => (await page.request.get(`${base}/signed`)).status(), { timeout: 30_000 }).toBe(200);
  expect((await page.request.get(`${base}/proof`)).headers()['content-type']).toContain('application/pdf');
  const timeline = (await api.get(`${base}/timeline`)).data!.map((e) => e.event_type);
  for (const type of ['envelope.approved', 'envelope.sent', 'signer.consent_given', 'signer.code_verified', 'signer.field_filled', 'signer.document_uploaded', 'signer.signed', 'envelope.completed']) {
    expect(timeline).toContain(type);
  }
});
