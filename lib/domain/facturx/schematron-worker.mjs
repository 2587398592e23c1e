// A worker thread that holds what validates a CII — the Factur-X XSD (libxml2 compiled to WebAssembly, libxml2-wasm)
// and compiled schematrons (SaxonJS SEF) — and runs its share of them over each document it is sent. Both are
// synchronous CPU work: in a worker they leave the server's event loop free. Plain JavaScript, loaded by path at run
// time (lib/domain/facturx/einvoice-validation.ts): neither Next.js's bundler nor tsx needs to see it.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';
import { gunzipSync } from 'node:zlib';

/** @type {{validationDir: string, xsd: string | null, stylesheets: Array<{name: string, sef: string, source: string}>}} */
const { validationDir, xsd, stylesheets } = workerData;

// Not loaded by the worker that only checks the XSD (the schematrons then run on the JVM, jvm-schematron.ts).
const SaxonJS = stylesheets.length > 0 ? createRequire(import.meta.url)('saxon-js') : null;

// The schema is parsed once (45 ms); each validation then costs about 3 ms, where xmllint-wasm parsed it every time.
const schema = xsd ? await loadSchema(xsd) : null;

async function loadSchema(file) {
  const { XmlDocument, XsdValidator } = await import('libxml2-wasm');
  const { xmlRegisterFsInputProviders } = await import('libxml2-wasm/lib/nodejs.mjs');
  // The schema includes its three companions by relative path: libxml2 reads them from disk.
  xmlRegisterFsInputProviders();
  const validator = XsdValidator.fromDoc(XmlDocument.fromBuffer(readFileSync(file), { url: file }));
  return { XmlDocument, validator };
}

/** libxml2's errors, `{message, line, xpath}` each; `parsed` false when the document is not even well-formed XML. */
function xsdErrors(xml) {
  const details = (err) => {
    if (!Array.isArray(err?.details)) throw err;
    return err.details.map((d) => ({ message: d.message.trim(), line: d.line ?? null, xpath: d.xpath ?? null }));
  };
  let doc;
  try {
    doc = schema.XmlDocument.fromString(xml);
  } catch (err) {
    return { parsed: false, errors: details(err) };
  }
  try {
    schema.validator.validate(doc);
    return { parsed: true, errors: [] };
  } catch (err) {
    return { parsed: true, errors: details(err) };
  } finally {
    doc.dispose();
  }
}

// Loaded once: SaxonJS keeps what it prepares from the SEF object, so every later transform reuses it.
const compiled = stylesheets.map((s) => {
  const base = pathToFileURL(path.join(validationDir, s.source)).href;
  return {
    name: s.name,
    sef: JSON.parse(gunzipSync(readFileSync(path.join(validationDir, 'sef', s.sef))).toString('utf8')),
    // The Factur-X schematron reads its code lists with document() relative to the stylesheet: the source's own place.
    base,
    // ... parsed once here and handed to every transform, which would otherwise parse the 190 KB file each time.
    documentPool: Object.fromEntries(
      (s.documents ?? []).map((relative) => {
        const uri = new URL(relative, base).href;
        return [uri, SaxonJS.getPlatform().parseXmlFromString(readFileSync(new URL(uri), 'utf8'))];
      }),
    ),
  };
});

parentPort.on('message', ({ id, xml }) => {
  try {
    const xsd = schema ? xsdErrors(xml) : null;
    /** @type {Record<string, string>} */
    const reports = {};
    let source = null;
    // What cannot be parsed cannot be checked: the worker that holds the XSD says why, from libxml2.
    if (xsd?.parsed !== false && compiled.length > 0) {
      try {
        source = SaxonJS.getPlatform().parseXmlFromString(xml);
      } catch (err) {
        parentPort.postMessage({ id, reports, xsd: xsd?.errors ?? null, unparsable: err instanceof Error ? err.message : String(err) });
        return;
      }
    }
    for (const s of source ? compiled : []) {
      const options = { stylesheetInternal: s.sef, stylesheetBaseURI: s.base, sourceNode: source, documentPool: s.documentPool, destination: 'serialized' };
      reports[s.name] = SaxonJS.transform(options, 'sync').principalResult;
    }
    parentPort.postMessage({ id, reports, xsd: xsd?.errors ?? null, wellFormed: xsd?.parsed ?? null });
  } catch (err) {
    parentPort.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
  }
});

parentPort.postMessage({ ready: true });
