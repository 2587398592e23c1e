import { createHash, createPrivateKey, generateKeyPairSync, type KeyObject, randomBytes, X509Certificate } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import forge from 'node-forge';

/**
 * The instance's sealing certificate (DESIGN §12): a PKCS#12 file named by SIGNATURE_CERT_PATH, opened with
 * SIGNATURE_CERT_PASSWORD. Unset outside production, a self-signed one is generated into `.data/` and reused.
 * RSA keys only (node-forge reads PKCS#12; it has no elliptic curves).
 */
export interface SealingIdentity {
  /** DER of the certificate, as embedded in every seal. */
  certificateDer: Buffer;
  certificate: X509Certificate;
  /** SHA-256 hex of certificateDer: what the verifier compares. */
  fingerprint: string;
  privateKey: KeyObject;
  /** Issuer and serial as forge holds them, for the CMS SignerInfo. */
  issuerAsn1: forge.asn1.Asn1;
  serialHex: string;
  subject: string;
  notAfter: Date;
  source: 'configured' | 'development';
}

/** Development only: the password of the generated file (it protects nothing a production instance uses). */
export const DEV_CERT_PASSWORD = 'paraphe-development';
const devCertPath = () => path.resolve(/*turbopackIgnore: true*/ process.cwd(), '.data', 'signature-seal.p12');

export class SealingCertificateError extends Error {}

const fail = (what: string): never => {
  throw new SealingCertificateError(`Sealing certificate (SIGNATURE_CERT_PATH): ${what}`);
};

/** Opens a PKCS#12 and checks it can seal now: readable, right password, a private key with its certificate, in validity. */
export function parseSealingP12(bytes: Buffer, password: string, source: SealingIdentity['source'], now = new Date()): SealingIdentity {
  let p12: forge.pkcs12.Pkcs12Pfx;
  try {
    p12 = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(bytes.toString('binary')), false, password);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return fail(/password|MAC/i.test(message) ? 'wrong password (SIGNATURE_CERT_PASSWORD) or not a PKCS#12 file' : `not a readable PKCS#12 file (${message})`);
  }
  const bags = (type: string): forge.pkcs12.Bag[] => p12.getBags({ bagType: type })[type] ?? [];
  const keyBags = [...bags(forge.pki.oids.pkcs8ShroudedKeyBag!), ...bags(forge.pki.oids.keyBag!)];
  const key = keyBags.find((b) => b.key)?.key as forge.pki.rsa.PrivateKey | undefined;
  if (!key) return fail('the file holds no private key (an RSA key is needed)');
  const certs = bags(forge.pki.oids.certBag!).flatMap((b) => (b.cert ? [b.cert] : []));
  const cert = certs.find((c) => {
    const pub = c.publicKey as forge.pki.rsa.PublicKey;
    return pub.n?.compareTo(key.n) === 0 && pub.e?.compareTo(key.e) === 0;
  });
  if (!cert) return fail('no certificate in the file matches its private key');
  const certificateDer = Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(cert)).getBytes(), 'binary');
  const x509 = new X509Certificate(certificateDer);
  const notAfter = new Date(x509.validTo);
  if (notAfter <= now) fail(`the certificate expired on ${notAfter.toISOString()}`);
  if (new Date(x509.validFrom) > now) fail(`the certificate is not valid before ${new Date(x509.validFrom).toISOString()}`);
  return {
    certificateDer,
    certificate: x509,
    fingerprint: createHash('sha256').update(certificateDer).digest('hex'),
    privateKey: createPrivateKey(forge.pki.privateKeyToPem(key)),
    issuerAsn1: forge.pki.distinguishedNameToAsn1(cert.issuer),
    serialHex: cert.serialNumber,
    subject: x509.subject.replace(/\n/g, ', '),
    notAfter,
    source,
  };
}

/** A self-signed sealing certificate (RSA 2048, 10 years), as a PKCS#12 protected by `password`. */
export function generateSelfSignedP12(password: string, commonName = 'Paraphe development seal'): Buffer {
  // Node generates the key (forge's pure-JS generation takes seconds); forge builds the certificate and the PKCS#12.
  const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const privateKey = forge.pki.privateKeyFromPem(pair.privateKey.export({ type: 'pkcs1', format: 'pem' }).toString());
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(pair.publicKey.export({ type: 'spki', format: 'pem' }).toString());
  // Positive serial: first byte below 0x80.
  cert.serialNumber = `01${randomBytes(15).toString('hex')}`;
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + 10 * 365 * 24 * 3600 * 1000);
  const name = [
    { name: 'commonName', value: commonName },
    { name: 'organizationName', value: 'Paraphe' },
    { name: 'countryName', value: 'FR' },
  ];
  cert.setSubject(name);
  cert.setIssuer(name);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, nonRepudiation: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(privateKey, forge.md.sha256.create());
  // 3DES: what OpenSSL 3 and poppler's tools still open.
  const asn1 = forge.pkcs12.toPkcs12Asn1(privateKey, [cert], password, { algorithm: '3des' });
  return Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary');
}

function developmentIdentity(): SealingIdentity {
  const file = devCertPath();
  try {
    return parseSealingP12(readFileSync(file), DEV_CERT_PASSWORD, 'development');
  } catch (error) {
    const absent = (error as NodeJS.ErrnoException).code === 'ENOENT';
    if (!absent && !(error instanceof SealingCertificateError)) throw error;
  }
  const bytes = generateSelfSignedP12(DEV_CERT_PASSWORD);
  mkdirSync(path.dirname(file), { recursive: true });
  // Written whole then renamed: two processes starting together never read half a file.
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(tmp, bytes, { mode: 0o600 });
  renameSync(tmp, file);
  return parseSealingP12(bytes, DEV_CERT_PASSWORD, 'development');
}

/** Reads and checks the configured certificate; without one, the development one (refused in production). */
export function loadSealingIdentity(env: Record<string, string | undefined> = process.env): SealingIdentity {
  const file = env.SIGNATURE_CERT_PATH?.trim();
  if (!file) {
    if (env.NODE_ENV === 'production') fail('not set; production needs the PKCS#12 of the sealing certificate (and SIGNATURE_CERT_PASSWORD)');
    return developmentIdentity();
  }
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    return fail(`the file ${file} is unreadable (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  return parseSealingP12(bytes, env.SIGNATURE_CERT_PASSWORD ?? '', 'configured');
}

const key = Symbol.for('paraphe.signature.seal-identity');
type G = typeof globalThis & { [key]?: SealingIdentity };

/** The process's sealing identity, loaded once (boot checks it first, so a bad file stops the start). */
export function sealingIdentity(): SealingIdentity {
  const g = globalThis as G;
  if (!g[key] || g[key].notAfter <= new Date()) g[key] = loadSealingIdentity();
  return g[key];
}

/** Tests and the bench: seal with this identity instead of the environment's. */
export function setSealingIdentity(identity: SealingIdentity | undefined) {
  (globalThis as G)[key] = identity;
}
