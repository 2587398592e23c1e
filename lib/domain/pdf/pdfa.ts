import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import path from 'node:path';
import { AFRelationship, PDFDict, PDFDocument, PDFHexString, PDFName, PDFRawStream, PDFString } from 'pdf-lib';
import { FACTURX_CONFORMANCE } from '@/lib/domain/facturx';

/** sRGB IEC61966-2.1 (icc-profiles-free, zlib licence: lib/domain/pdf/icc/LICENSE.txt), the output intent of every PDF/A. */
const ICC_PATH = path.join(process.cwd(), 'lib/domain/pdf/icc/sRGB.icc');
/** The profile deflated once per process (it is the same stream in every file). */
let iccDeflated: Buffer | undefined;

export const FACTURX_FILENAME = 'factur-x.xml';
export const FACTURX_NS = 'urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#';

export interface PdfAOptions {
  title: string;
  author: string;
  subject: string;
  /** BCP 47, e.g. fr-FR. */
  language: string;
  /** CreationDate and ModDate (the finalization time: rendering the same document again yields the same metadata). */
  date: Date;
  /** Seed of the trailer /ID (the document id). */
  fileId: string;
  /** The Factur-X XML to embed; absent for a quote. */
  facturx?: string;
}

const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
/** XMP dates are ISO 8601 to the second, like the Info dictionary's D:YYYYMMDDHHmmSSZ they must equal. */
const xmpDate = (d: Date) => `${d.toISOString().slice(0, 19)}Z`;

/** The Factur-X extension schema description: PDF/A requires every custom XMP property to be declared. */
const FX_EXTENSION = `
    <rdf:Description rdf:about="" xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/" xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#" xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#">
      <pdfaExtension:schemas>
        <rdf:Bag>
          <rdf:li rdf:parseType="Resource">
            <pdfaSchema:schema>Factur-X PDFA Extension Schema</pdfaSchema:schema>
            <pdfaSchema:namespaceURI>${FACTURX_NS}</pdfaSchema:namespaceURI>
            <pdfaSchema:prefix>fx</pdfaSchema:prefix>
            <pdfaSchema:property>
              <rdf:Seq>
${[
  ['DocumentFileName', 'name of the embedded XML invoice file'],
  ['DocumentType', 'INVOICE'],
  ['Version', 'The actual version of the Factur-X XML schema'],
  ['ConformanceLevel', 'The conformance level of the embedded Factur-X data'],
]
  .map(
    ([name, description]) => `                <rdf:li rdf:parseType="Resource">
                  <pdfaProperty:name>${name}</pdfaProperty:name>
                  <pdfaProperty:valueType>Text</pdfaProperty:valueType>
                  <pdfaProperty:category>external</pdfaProperty:category>
                  <pdfaProperty:description>${description}</pdfaProperty:description>
                </rdf:li>`,
  )
  .join('\n')}
              </rdf:Seq>
            </pdfaSchema:property>
          </rdf:li>
        </rdf:Bag>
      </pdfaExtension:schemas>
    </rdf:Description>`;

export function xmpMetadata(o: PdfAOptions & { producer: string; creator: string }): string {
  const date = xmpDate(o.date);
  return `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
  <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
    <rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/">
      <pdfaid:part>3</pdfaid:part>
      <pdfaid:conformance>B</pdfaid:conformance>
    </rdf:Description>
    <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/">
      <dc:format>application/pdf</dc:format>
      <dc:title><rdf:Alt><rdf:li xml:lang="x-default">${xmlEscape(o.title)}</rdf:li></rdf:Alt></dc:title>
      <dc:creator><rdf:Seq><rdf:li>${xmlEscape(o.author)}</rdf:li></rdf:Seq></dc:creator>
      <dc:description><rdf:Alt><rdf:li xml:lang="x-default">${xmlEscape(o.subject)}</rdf:li></rdf:Alt></dc:description>
    </rdf:Description>
    <rdf:Description rdf:about="" xmlns:pdf="http://ns.adobe.com/pdf/1.3/">
      <pdf:Producer>${xmlEscape(o.producer)}</pdf:Producer>
    </rdf:Description>
    <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/">
      <xmp:CreatorTool>${xmlEscape(o.creator)}</xmp:CreatorTool>
      <xmp:CreateDate>${date}</xmp:CreateDate>
      <xmp:ModifyDate>${date}</xmp:ModifyDate>
      <xmp:MetadataDate>${date}</xmp:MetadataDate>
    </rdf:Description>${
      o.facturx
        ? `
    <rdf:Description rdf:about="" xmlns:fx="${FACTURX_NS}">
      <fx:DocumentType>INVOICE</fx:DocumentType>
      <fx:DocumentFileName>${FACTURX_FILENAME}</fx:DocumentFileName>
      <fx:Version>1.0</fx:Version>
      <fx:ConformanceLevel>${FACTURX_CONFORMANCE}</fx:ConformanceLevel>
    </rdf:Description>${FX_EXTENSION}`
        : ''
    }
  </rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>`;
}

/**
 * Turns react-pdf's output into a PDF/A-3b file: document information and the matching XMP metadata
 * (pdfaid part 3 / B, plus the Factur-X fx: properties and their extension schema when an XML is embedded),
 * an sRGB output intent, the trailer /ID, and the XML as `factur-x.xml` (AFRelationship /Data, listed in the
 * catalog's /AF, MIME text/xml, with its size, dates and MD5 checksum). Fonts are embedded by react-pdf.
 */
export async function toPdfA3(input: Uint8Array | PDFDocument, o: PdfAOptions): Promise<Uint8Array> {
  // Already parsed by the caller (renderDocument counts its pages), or loaded here; either way changed in place.
  const doc = input instanceof PDFDocument ? input : await PDFDocument.load(input, { updateMetadata: false });
  const context = doc.context;
  const producer = 'Paraphe (react-pdf, pdf-lib)';
  const creator = 'Paraphe';

  doc.setTitle(o.title, { showInWindowTitleBar: true });
  doc.setAuthor(o.author);
  doc.setSubject(o.subject);
  doc.setCreator(creator);
  doc.setProducer(producer);
  doc.setCreationDate(o.date);
  doc.setModificationDate(o.date);
  doc.setLanguage(o.language);
  // XMP carries no keywords, so the Info dictionary must not either (PDF/A: the two say the same).
  context.lookup(context.trailerInfo.Info, PDFDict)?.delete(PDFName.of('Keywords'));

  if (o.facturx) {
    const xml = Buffer.from(o.facturx, 'utf8');
    await doc.attach(xml, FACTURX_FILENAME, {
      mimeType: 'text/xml',
      description: `Factur-X ${FACTURX_CONFORMANCE}`,
      creationDate: o.date,
      modificationDate: o.date,
      afRelationship: AFRelationship.Data,
    });
    await doc.flush();
    finishAttachment(doc, xml);
  }

  iccDeflated ??= deflateSync(readFileSync(ICC_PATH));
  const profile = context.register(context.stream(iccDeflated, { N: 3, Filter: 'FlateDecode' }));
  const intent = context.obj({
    Type: 'OutputIntent',
    S: 'GTS_PDFA1',
    OutputConditionIdentifier: PDFString.of('sRGB IEC61966-2.1'),
    Info: PDFString.of('sRGB IEC61966-2.1'),
    RegistryName: PDFString.of('http://www.color.org'),
    DestOutputProfile: profile,
  });
  doc.catalog.set(PDFName.of('OutputIntents'), context.obj([context.register(intent)]));

  // PDF/A: the metadata stream is not filtered, so XMP-aware tools read it without decoding the PDF.
  const xmp = xmpMetadata({ ...o, producer, creator });
  doc.catalog.set(PDFName.of('Metadata'), context.register(context.stream(Buffer.from(xmp, 'utf8'), { Type: 'Metadata', Subtype: 'XML' })));

  const id = createHash('md5').update(o.fileId).digest('hex');
  context.trailerInfo.ID = context.obj([PDFHexString.of(id), PDFHexString.of(id)]);
  return doc.save({ useObjectStreams: false });
}

/**
 * pdf-lib writes /Params /Size and the dates; PDF/A-3 readers also expect the MD5 /CheckSum of the file. It
 * also writes /UF as UTF-16: an ASCII name as a plain string is what every reader matches (pdfdetach -savefile).
 */
function finishAttachment(doc: PDFDocument, xml: Buffer) {
  const md5 = createHash('md5').update(xml).digest('hex');
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    if (object instanceof PDFRawStream && object.dict.get(PDFName.of('Type')) === PDFName.of('EmbeddedFile')) {
      object.dict.lookup(PDFName.of('Params'), PDFDict).set(PDFName.of('CheckSum'), PDFHexString.of(md5));
    }
    if (object instanceof PDFDict && object.get(PDFName.of('Type')) === PDFName.of('Filespec')) {
      object.set(PDFName.of('UF'), PDFString.of(FACTURX_FILENAME));
    }
  }
}
