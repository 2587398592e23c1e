import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import forge from 'node-forge';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSelfSignedP12, loadSealingIdentity, parseSealingP12, SealingCertificateError } from './certificate';

let dir = '';
let p12: Buffer;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'paraphe-cert-'));
  p12 = generateSelfSignedP12('s3cret', 'Cabinet Exemple seal');
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const refusal = (load: () => unknown) => {
  try {
    load();
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(SealingCertificateError);
    return (error as Error).message;
  }
};

/** A PKCS#12 holding only a certificate (no private key). */
function certificateOnly(): Buffer {
  const parsed = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(p12.toString('binary')), false, 's3cret');
  const cert = parsed.getBags({ bagType: forge.pki.oids.certBag! })[forge.pki.oids.certBag!]![0]!.cert!;
  return Buffer.from(forge.asn1.toDer(forge.pkcs12.toPkcs12Asn1(null, [cert], 's3cret', { algorithm: '3des' })).getBytes(), 'binary');
}

describe('the sealing certificate (SIGNATURE_CERT_PATH / SIGNATURE_CERT_PASSWORD)', () => {
  it('loads a configured PKCS#12: subject, fingerprint, validity', async () => {
    const file = path.join(dir, 'seal.p12');
    await writeFile(file, p12);
    const identity = loadSealingIdentity({ SIGNATURE_CERT_PATH: file, SIGNATURE_CERT_PASSWORD: 's3cret', NODE_ENV: 'production' });
    expect(identity).toMatchObject({ source: 'configured', subject: expect.stringContaining('CN=Cabinet Exemple seal') });
    expect(identity.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(identity.notAfter.getTime()).toBeGreaterThan(Date.now() + 9 * 365 * 24 * 3600 * 1000);
  });

  it('refuses with a clear reason: unreadable, wrong password, no private key, expired, unset in production', async () => {
    expect(refusal(() => loadSealingIdentity({ SIGNATURE_CERT_PATH: path.join(dir, 'absent.p12'), SIGNATURE_CERT_PASSWORD: 'x' }))).toMatch(/absent\.p12 is unreadable \(ENOENT\)/);
    expect(refusal(() => parseSealingP12(p12, 'wrong', 'configured'))).toMatch(/wrong password/);
    expect(refusal(() => parseSealingP12(Buffer.from('not a pkcs12'), 's3cret', 'configured'))).toMatch(/wrong password|not a readable PKCS#12/);
    expect(refusal(() => parseSealingP12(certificateOnly(), 's3cret', 'configured'))).toMatch(/no private key/);
    expect(refusal(() => parseSealingP12(p12, 's3cret', 'configured', new Date(Date.now() + 11 * 365 * 24 * 3600 * 1000)))).toMatch(/expired on/);
    expect(refusal(() => loadSealingIdentity({ NODE_ENV: 'production' }))).toMatch(/not set; production needs/);
  });
});
