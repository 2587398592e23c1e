import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingContext, line } from '@/lib/domain/documents/testing';
import { renderEmail } from '@/lib/platform/email';
import { LocalStorage, setStorage } from '@/lib/platform/storage';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { envelopeApi, mailsTo } from './testing';

let dir = '';
let org: TestOrg;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'paraphe-signature-mail-'));
  setStorage(new LocalStorage(dir));
  org = await createTestOrg('Atelier Dupont');
});
afterAll(async () => {
  setStorage(undefined);
  if (dir) await rm(dir, { recursive: true, force: true });
});

const request = {
  seller_name: 'Atelier Dupont',
  sender_name: 'Jeanne Martin',
  recipient_name: 'Paul Durand',
  document_title: 'Contrat de maintenance',
  message: 'Voici le contrat dont nous avons parlé.',
  sign_url: 'https://app.example/sign/abc',
  expires_at: '2026-12-24T10:00:00Z',
};

describe('signature e-mails', () => {
  it('writes the request and the reminder in French and English, with the link, the expiry and the sender’s message', async () => {
    const fr = await renderEmail('signature_request', request, 'fr');
    expect(fr.subject).toBe('Document à signer : Contrat de maintenance – Atelier Dupont');
    expect(fr.text).toContain('Bonjour Paul Durand,');
    expect(fr.text).toContain('Jeanne Martin (Atelier Dupont) vous invite à signer');
    expect(fr.text).toContain('https://app.example/sign/abc');
    expect(fr.text).toContain('24/12/2026 11:00');
    expect(fr.text).toContain('Voici le contrat');
    const en = await renderEmail('signature_reminder', request, 'en');
    expect(en.subject).toBe('Reminder: document to sign – Contrat de maintenance – Atelier Dupont');
    expect(en.text).toContain('is still waiting for your signature');
    expect(en.text).toContain('https://app.example/sign/abc');
    await expect(renderEmail('signature_request', { ...request, sign_url: 'javascript:alert(1)' }, 'fr')).rejects.toMatchObject({ status: 422, field: 'data.sign_url' });
  });

  it('writes the expired notice for a signer and for the sender, and the approver’s request', async () => {
    const common = { seller_name: 'Atelier Dupont', document_title: 'Bail', expired_at: '2026-12-01T09:00:00Z' };
    const signer = await renderEmail('signature_expired', { ...common, to_sender: false }, 'en');
    expect(signer.subject).toBe('Signature request expired: Bail');
    expect(signer.text).toContain('The link no longer works');
    const sender = await renderEmail('signature_expired', { ...common, to_sender: true, envelope_url: 'https://app.example/signature/1' }, 'fr');
    expect(sender.text).toContain('Vous pouvez la réactiver');
    expect(sender.text).toContain('https://app.example/signature/1');
    const approver = await renderEmail('signature_approval_requested', { seller_name: 'Atelier Dupont', document_title: 'Bail', envelope_url: 'https://app.example/signature/1' }, 'fr');
    expect(approver.subject).toBe('Approbation demandée : Bail');
    expect(approver.text).toContain('ne pourra pas être envoyée aux signataires avant votre approbation');
  });

  it('writes to the signers of a quote in its client’s language, naming the quote', async () => {
    const billing = await billingContext(org);
    const client = await billing.contact({ email: 'buyer@client.example', preferred_language: 'en' });
    const quote = await billing.issued({ type: 'devis', contact_id: client.id, items: [line('Audit', '1', 50000)] });
    const api = envelopeApi(org);
    const env = await api.create({ source_kind: 'devis', source_document_id: quote.id, signers: [{ email: 'buyer@client.example', full_name: 'Ann Buyer' }] });
    expect((await api.send(env.body.id)).status).toBe(200);
    const [mail] = (await mailsTo(org, 'buyer@client.example')).filter((m) => m.template === 'signature_request');
    expect(mail).toMatchObject({ language: 'en', subject: `Document to sign: Quote ${quote.number} – Atelier Dupont` });
    expect(mail!.text).toContain('Hello Ann Buyer,');
  });
});
