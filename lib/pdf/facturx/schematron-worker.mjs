// A worker thread that holds compiled schematrons (SaxonJS SEF) and runs them over CII documents. SaxonJS transforms
// are synchronous CPU work (a few hundred milliseconds per document): in a worker they leave the server's event loop
// free. Plain JavaScript, loaded by path at run time (lib/pdf/facturx/einvoice-validation.ts): neither Next.js's
// bundler nor tsx needs to see it.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';
import { gunzipSync } from 'node:zlib';

const require = createRequire(import.meta.url);
const SaxonJS = require('saxon-js');

/** @type {{validationDir: string, stylesheets: Array<{name: string, sef: string, source: string}>}} */
const { validationDir, stylesheets } = workerData;

// Loaded once: SaxonJS keeps what it prepares from the SEF object, so every later transform reuses it.
const compiled = stylesheets.map((s) => ({
  name: s.name,
  sef: JSON.parse(gunzipSync(readFileSync(path.join(validationDir, 'sef', s.sef))).toString('utf8')),
  // The Factur-X schematron reads its code lists with document() relative to the stylesheet: the source's own place.
  base: pathToFileURL(path.join(validationDir, s.source)).href,
}));

parentPort.on('message', ({ id, xml }) => {
  try {
    const source = SaxonJS.getPlatform().parseXmlFromString(xml);
    /** @type {Record<string, string>} */
    const reports = {};
    for (const s of compiled) {
      const result = SaxonJS.transform({ stylesheetInternal: s.sef, stylesheetBaseURI: s.base, sourceNode: source, destination: 'serialized' }, 'sync');
      reports[s.name] = result.principalResult;
    }
    parentPort.postMessage({ id, reports });
  } catch (err) {
    parentPort.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
  }
});

parentPort.postMessage({ ready: true });
