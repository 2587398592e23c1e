import { createHash, sign as rsaSign } from 'node:crypto';
import { pdflibAddPlaceholder } from '@signpdf/placeholder-pdf-lib';
import { SignPdf } from '@signpdf/signpdf';
import { Signer, SUBFILTER_ETSI_CADES_DETACHED } from '@signpdf/utils';
import forge from 'node-forge';
import type { PDFDocument } from 'pdf-lib';
import type { SealingIdentity } from './certificate';

/**
 * PAdES-B (ETSI EN 319 142-1, baseline B-B) seal of a PDF: a signature dictionary with SubFilter
 * ETSI.CAdES.detached whose /Contents is a detached CMS SignedData over the /ByteRange, with the signed attributes
 * content-type, message-digest and signing-certificate-v2 (no signing-time attribute: B-B takes the time from /M).
 * @signpdf places the dictionary and fills the byte range; the CMS is built here because node-forge's PKCS#7 writer
 * knows no signing-certificate-v2 attribute. docs/signature.md tells an auditor how to check it.
 */
export const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  sha256: '2.16.840.1.101.3.4.2.1',
  sha256WithRsa: '1.2.840.113549.1.1.11',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
} as const;

/** Room for the CMS in the file (bytes): the certificate, the attributes and a 4096-bit signature fit with margin. */
const SIGNATURE_BYTES = 12_000;

const { asn1 } = forge;
const U = asn1.Class.UNIVERSAL;
const oid = (o: string) => asn1.create(U, asn1.Type.OID, false, asn1.oidToDer(o).getBytes());
const seq = (items: forge.asn1.Asn1[]) => asn1.create(U, asn1.Type.SEQUENCE, true, items);
const set = (items: forge.asn1.Asn1[]) => asn1.create(U, asn1.Type.SET, true, items);
const octets = (bytes: Buffer) => asn1.create(U, asn1.Type.OCTETSTRING, false, bytes.toString('binary'));
const nullValue = () => asn1.create(U, asn1.Type.NULL, false, '');
const int = (n: number) => asn1.create(U, asn1.Type.INTEGER, false, asn1.integerToDer(n).getBytes());
const der = (node: forge.asn1.Asn1) => Buffer.from(asn1.toDer(node).getBytes(), 'binary');
const attribute = (type: string, value: forge.asn1.Asn1) => seq([oid(type), set([value])]);

/** The detached CMS SignedData of `content` (the concatenated byte ranges), signed with the identity's RSA key. */
export function cadesDetached(content: Buffer, identity: SealingIdentity): Buffer {
  const certHash = createHash('sha256').update(identity.certificateDer).digest();
  const attributes = [
    attribute(OID.contentType, oid(OID.data)),
    attribute(OID.messageDigest, octets(createHash('sha256').update(content).digest())),
    // SigningCertificateV2 { certs: [ESSCertIDv2 { certHash }] }; hashAlgorithm sha256 is the default, so omitted.
    attribute(OID.signingCertificateV2, seq([seq([seq([octets(certHash)])])])),
  ]
    // DER: the members of a SET OF in the order of their encodings.
    .map((node) => ({ node, bytes: der(node) }))
    .sort((a, b) => Buffer.compare(a.bytes, b.bytes))
    .map((a) => a.node);
  // The signature covers the attributes encoded as a SET (RFC 5652 §5.4), not with their [0] tag.
  const signature = rsaSign('sha256', der(set(attributes)), identity.privateKey);
  const certificate = asn1.fromDer(identity.certificateDer.toString('binary'));
  const signerInfo = seq([
    int(1),
    seq([identity.issuerAsn1, asn1.create(U, asn1.Type.INTEGER, false, forge.util.hexToBytes(identity.serialHex))]),
    seq([oid(OID.sha256)]),
    asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, attributes),
    seq([oid(OID.sha256WithRsa), nullValue()]),
    octets(signature),
  ]);
  const signedData = seq([
    int(1),
    set([seq([oid(OID.sha256)])]),
    seq([oid(OID.data)]),
    asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, [certificate]),
    set([signerInfo]),
  ]);
  return der(seq([oid(OID.signedData), asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, [signedData])]));
}

class CadesSigner extends Signer {
  constructor(private readonly identity: SealingIdentity) {
    super();
  }
  override async sign(content: Buffer): Promise<Buffer> {
    return cadesDetached(content, this.identity);
  }
}

export interface SealOptions {
  reason: string;
  location: string;
  /** The name shown as the signer of the seal. */
  name: string;
  contactInfo: string;
  signingTime: Date;
}

/**
 * Adds the signature placeholder to `pdf` and saves it: the file to seal. In the sandbox with the composition
 * (seal-in-worker.ts): pdf-lib rewrites every object of the signers' original there. The private key never goes in.
 */
export async function withSealPlaceholder(pdf: PDFDocument, options: SealOptions): Promise<Uint8Array> {
  pdflibAddPlaceholder({
    pdfDoc: pdf,
    reason: options.reason,
    contactInfo: options.contactInfo,
    name: options.name,
    location: options.location,
    signingTime: options.signingTime,
    signatureLength: SIGNATURE_BYTES,
    subFilter: SUBFILTER_ETSI_CADES_DETACHED,
    appName: 'Paraphe',
  });
  // Without object streams: the byte range is found in plain text, and the file reads in every validator.
  return pdf.save({ useObjectStreams: false });
}

/** Fills the placeholder with the CMS of the byte ranges, signed with the identity's key: the sealed file. */
export function signPlaceholder(bytes: Uint8Array, identity: SealingIdentity, signingTime: Date): Promise<Buffer> {
  return new SignPdf().sign(Buffer.from(bytes), new CadesSigner(identity), signingTime);
}

/** Both steps on this thread (the bench's reference; the seal job runs the first in the sandbox). */
export async function sealPdf(pdf: PDFDocument, identity: SealingIdentity, options: SealOptions): Promise<Buffer> {
  return signPlaceholder(await withSealPlaceholder(pdf, options), identity, options.signingTime);
}
