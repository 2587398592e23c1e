import { createHash, verify as rsaVerify, X509Certificate } from 'node:crypto';
import { eq } from 'drizzle-orm';
import forge from 'node-forge';
import type { Db } from '@/db/client';
import { signatureDocuments, signatureEnvelopes } from '@/db/schema';
import { notFound } from '@/lib/platform/errors';
import { getStorage, readAll, sha256Hex } from '@/lib/platform/storage';
import { type AuditChainReport, verifyAuditChain } from './audit';
import { sealingIdentity } from './certificate';
import { OID } from './seal';

/** What the seal of a signed PDF says when checked (each part true or the reason it fails). */
export interface SealCheck {
  ok: boolean;
  /** SHA-256 of the stored file equals the envelope's signed_document_sha256. */
  stored_hash: boolean;
  /** The /ByteRange covers the whole file but the /Contents hole. */
  byte_range: boolean;
  /** SHA-256 of the byte ranges equals the CMS message-digest attribute. */
  digest: boolean;
  /** The CMS signature verifies with the embedded certificate's public key. */
  signature: boolean;
  /** The signing-certificate-v2 attribute names the embedded certificate, valid at completion, the instance's certificate. */
  certificate: boolean;
  subfilter: string | null;
  certificate_subject: string | null;
  certificate_sha256: string | null;
  errors: string[];
}

export interface EnvelopeVerification {
  envelope_id: string;
  status: string;
  ok: boolean;
  chain: AuditChainReport;
  /** The stored original against document_hash (null before send: nothing to compare). */
  document: { ok: boolean; expected: string; actual: string | null } | null;
  /** Null when the envelope has no signed PDF. */
  seal: SealCheck | null;
}

const { asn1 } = forge;
type Node = forge.asn1.Asn1;
const children = (n: Node | undefined) => (Array.isArray(n?.value) ? (n.value as Node[]) : []);
const contextTagged = (n: Node, tag: number) => n.tagClass === asn1.Class.CONTEXT_SPECIFIC && n.type === tag;
const oidOf = (n: Node | undefined) => (n && typeof n.value === 'string' ? asn1.derToOid(n.value) : null);
const bytesOf = (n: Node | undefined) => Buffer.from(typeof n?.value === 'string' ? n.value : '', 'binary');

/** The last signature of a PDF: its byte range, its /Contents (the CMS) and its SubFilter. */
function lastSignature(pdf: Buffer) {
  const text = pdf.toString('latin1');
  const ranges = [...text.matchAll(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g)];
  const last = ranges.at(-1);
  if (!last) return null;
  const [a, b, c, d] = last.slice(1, 5).map(Number) as [number, number, number, number];
  const hole = text.slice(a + b, c);
  const sub = /\/SubFilter\s*\/([\w.]+)/.exec(text.slice(Math.max(0, last.index - 4000), last.index + 4000));
  return { a, b, c, d, hole, subfilter: sub?.[1] ?? null };
}

/**
 * Checks the seal of a signed PDF as an independent verifier would (docs/signature.md): the byte range, the
 * message digest over it, the RSA signature of the signed attributes, and the certificate.
 */
export function checkSeal(pdf: Buffer, expected: { sha256: string | null; completedAt: Date | null; instanceFingerprint: string | null }): SealCheck {
  const out: SealCheck = {
    ok: false,
    stored_hash: expected.sha256 === null || sha256Hex(pdf) === expected.sha256,
    byte_range: false,
    digest: false,
    signature: false,
    certificate: false,
    subfilter: null,
    certificate_subject: null,
    certificate_sha256: null,
    errors: [],
  };
  if (!out.stored_hash) out.errors.push('the file differs from the one stored at sealing (signed_document_sha256)');
  const sig = lastSignature(pdf);
  if (!sig) {
    out.errors.push('no signature (/ByteRange) in the file');
    return out;
  }
  out.subfilter = sig.subfilter;
  out.byte_range = sig.a === 0 && sig.c + sig.d === pdf.length && sig.b < sig.c && /^<[0-9a-fA-F]*>$/.test(sig.hole);
  if (!out.byte_range) out.errors.push('the byte range does not cover the whole file around /Contents');
  try {
    const cms = (asn1.fromDer as unknown as (bytes: string, options: object) => Node)(forge.util.hexToBytes(sig.hole.slice(1, -1)), { parseAllBytes: false });
    const signedData = children(children(cms)[1])[0];
    const parts = children(signedData);
    const certNode = children(parts.find((n) => contextTagged(n, 0)))[0];
    const signerInfo = children(parts.at(-1))[0];
    const info = children(signerInfo);
    const attrsNode = info.find((n) => contextTagged(n, 0));
    if (!certNode || !attrsNode) throw new Error('no certificate or no signed attributes in the CMS');
    const attrs = new Map(children(attrsNode).map((a) => [oidOf(children(a)[0]), children(children(a)[1])[0]]));
    const content = Buffer.concat([pdf.subarray(sig.a, sig.a + sig.b), pdf.subarray(sig.c, sig.c + sig.d)]);
    out.digest = bytesOf(attrs.get(OID.messageDigest)).equals(createHash('sha256').update(content).digest());
    if (!out.digest) out.errors.push('the message digest does not match the signed bytes (the file was changed after sealing)');
    const certDer = Buffer.from(asn1.toDer(certNode).getBytes(), 'binary');
    const cert = new X509Certificate(certDer);
    out.certificate_subject = cert.subject.replace(/\n/g, ', ');
    out.certificate_sha256 = createHash('sha256').update(certDer).digest('hex');
    // The attributes are signed as a DER SET (RFC 5652 §5.4).
    const signedAttrs = Buffer.from(asn1.toDer(asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SET, true, children(attrsNode))).getBytes(), 'binary');
    out.signature = rsaVerify('sha256', signedAttrs, cert.publicKey, bytesOf(info.at(-1)));
    if (!out.signature) out.errors.push('the CMS signature does not verify with the embedded certificate');
    const essHash = bytesOf(children(children(children(attrs.get(OID.signingCertificateV2))[0])[0])[0]);
    const problems = [
      essHash.toString('hex') !== out.certificate_sha256 ? 'the signing-certificate-v2 attribute does not name the embedded certificate' : null,
      expected.completedAt && (new Date(cert.validFrom) > expected.completedAt || new Date(cert.validTo) < expected.completedAt)
        ? 'the certificate was not valid when the envelope completed'
        : null,
      expected.instanceFingerprint && expected.instanceFingerprint !== out.certificate_sha256 ? "the certificate is not this instance's sealing certificate" : null,
    ].filter((p): p is string => p !== null);
    out.certificate = problems.length === 0;
    out.errors.push(...problems);
  } catch (error) {
    out.errors.push(`unreadable CMS: ${error instanceof Error ? error.message : String(error)}`);
  }
  out.ok = out.stored_hash && out.byte_range && out.digest && out.signature && out.certificate && out.subfilter === 'ETSI.CAdES.detached';
  if (out.subfilter !== 'ETSI.CAdES.detached') out.errors.push(`SubFilter is ${out.subfilter ?? 'missing'}, not ETSI.CAdES.detached`);
  return out;
}

async function read(key: string): Promise<Buffer | null> {
  const object = await getStorage().get(key);
  return object ? readAll(object.body) : null;
}

/** `signature:verify`: the chain, the original against document_hash, and the seal of the signed PDF. */
export async function verifyEnvelope(db: Db, envelopeId: string): Promise<EnvelopeVerification> {
  const [e] = await db.select().from(signatureEnvelopes).where(eq(signatureEnvelopes.id, envelopeId));
  if (!e) throw notFound('Signature envelope');
  const chain = await verifyAuditChain(db, envelopeId);
  let document: EnvelopeVerification['document'] = null;
  if (e.document_hash) {
    const [doc] = e.document_id ? await db.select().from(signatureDocuments).where(eq(signatureDocuments.id, e.document_id)) : [];
    const bytes = doc ? await read(doc.storage_key) : null;
    const actual = bytes ? sha256Hex(bytes) : null;
    document = { ok: actual === e.document_hash, expected: e.document_hash, actual };
  }
  let seal: SealCheck | null = null;
  if (e.signed_document_key) {
    const bytes = await read(e.signed_document_key);
    seal = bytes
      ? checkSeal(bytes, { sha256: e.signed_document_sha256, completedAt: e.completed_at, instanceFingerprint: sealingIdentity().fingerprint })
      : { ...checkSeal(Buffer.alloc(0), { sha256: null, completedAt: null, instanceFingerprint: null }), errors: ['the signed PDF is missing from storage'] };
  }
  return { envelope_id: e.id, status: e.status, ok: chain.ok && (document?.ok ?? true) && (seal?.ok ?? true), chain, document, seal };
}
