#!/usr/bin/env node
/**
 * Compiles the three Factur-X schematrons (XSLT 2.0, lib/domain/facturx/validation/schematron) to SaxonJS SEF with
 * xslt3, gzipped into lib/domain/facturx/validation/sef, and records in manifest.json the SHA-256 of each source, the
 * compiler's version and the documents each stylesheet reads with document() (the validation worker parses them
 * once). What is compiled is the official stylesheet rewritten by scripts/facturx-walk.mjs (one walk instead of one per
 * pattern: the same findings in a fraction of the time); the official one is compiled too, and the rewritten SEF is
 * kept only if both report the same on the repository's Factur-X samples and hundreds of mutated copies
 * (scripts/facturx-equivalence.mjs). The SEF files are committed: compiling takes minutes on a 2-core machine, too long for every fresh clone,
 * build and CI run; lib/domain/facturx/einvoice-validation.test.ts fails when a source or the compiler no
 * longer matches the manifest (docs/facturx.md, "Validation before sealing").
 *
 *   npm run facturx:compile            recompile the stylesheets whose source or compiler changed
 *   npm run facturx:compile -- --force recompile all
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { compareReports, corpus } from './facturx-equivalence.mjs';
import { rewriteSchematron } from './facturx-walk.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const validation = path.join(root, 'lib/domain/facturx/validation');
const out = path.join(validation, 'sef');
const manifestFile = path.join(out, 'manifest.json');
const require = createRequire(import.meta.url);
const SaxonJS = require('saxon-js');

export const STYLESHEETS = {
  cen: { source: 'schematron/cen-en16931-cii/EN16931-CII-validation.xslt' },
  // Its code lists, read with document(): the validation worker parses them once.
  facturx: { source: 'schematron/facturx-1.0.9/EN16931/Factur-X_1.09_EN16931.xsl', documents: ['FACTUR-X_EN16931_codedb.xml'] },
  fr: { source: 'schematron/fr-ctc/BR-FR-Flux2-Schematron-CII.xslt' },
};

const sha256 = (file) => createHash('sha256').update(readFileSync(file)).digest('hex');
/** The rewrite's own version: a change to it recompiles every stylesheet. */
const REWRITE = path.join(root, 'scripts/facturx-walk.mjs');
/** The documents the rewritten and official stylesheets must agree on (mutated copies of each). */
const SAMPLES = ['lib/domain/einvoicing/parse/fixtures/samples/factur-x-en16931.xml', 'lib/domain/einvoicing/parse/fixtures/samples/factur-x-basic.xml', 'lib/domain/facturx/fixtures/paraphe-facture.xml'];
const MUTATIONS_PER_SAMPLE = Number(process.env.MUTATIONS_PER_SAMPLE ?? 120);

const compile = (xsl, sef) =>
  execFileSync(process.execPath, [require.resolve('xslt3/xslt3.js'), `-xsl:${xsl}`, `-export:${sef}`, '-nogo', '-relocate:on'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
const compiler = () => `xslt3 ${require('xslt3/package.json').version}`;

const force = process.argv.includes('--force');
const previous = existsSync(manifestFile) ? JSON.parse(readFileSync(manifestFile, 'utf8')) : { stylesheets: {} };
const manifest = { compiler: compiler(), rewrite: sha256(REWRITE), stylesheets: {} };
const work = mkdtempSync(path.join(tmpdir(), 'paraphe-sef-'));
try {
  for (const [name, { source, documents }] of Object.entries(STYLESHEETS)) {
    const entry = { source, sha256: sha256(path.join(validation, source)), sef: `${name}.sef.json.gz`, ...(documents ? { documents } : {}) };
    const before = previous.stylesheets?.[name];
    const fresh =
      before &&
      before.sha256 === entry.sha256 &&
      previous.compiler === manifest.compiler &&
      previous.rewrite === manifest.rewrite &&
      existsSync(path.join(out, entry.sef));
    if (fresh && !force) {
      console.log(`${name}: up to date`);
    } else {
      const started = Date.now();
      const official = path.join(validation, source);
      const rewritten = path.join(work, `${name}.rewritten.xsl`);
      const { xsl, patterns } = rewriteSchematron(readFileSync(official, 'utf8'));
      writeFileSync(rewritten, xsl);
      const sef = path.join(work, `${name}.sef.json`);
      const officialSef = path.join(work, `${name}.official.sef.json`);
      compile(rewritten, sef);
      compile(official, officialSef);
      const options = (file) => {
        const base = pathToFileURL(official).href;
        return {
          stylesheetInternal: JSON.parse(readFileSync(file, 'utf8')),
          stylesheetBaseURI: base,
          documentPool: Object.fromEntries(
            (documents ?? []).map((relative) => {
              const uri = new URL(relative, base).href;
              return [uri, SaxonJS.getPlatform().parseXmlFromString(readFileSync(new URL(uri), 'utf8'))];
            }),
          ),
        };
      };
      const bases = SAMPLES.map((file) => readFileSync(path.join(root, file), 'utf8'));
      const checked = compareReports(options(officialSef), options(sef), corpus(bases, MUTATIONS_PER_SAMPLE));
      console.log(`${name}: ${patterns} patterns in one walk; same reports as the official stylesheet on ${checked.documents} documents (${checked.findings} findings)`);
      writeFileSync(path.join(out, entry.sef), gzipSync(readFileSync(sef), { level: 9 }));
      console.log(`${name}: compiled in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
    manifest.stylesheets[name] = entry;
  }
  writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
