#!/usr/bin/env node
/**
 * Compiles the three Factur-X schematrons (XSLT 2.0, lib/pdf/facturx/validation/schematron) to SaxonJS SEF with
 * xslt3, gzipped into lib/pdf/facturx/validation/sef, and records in manifest.json the SHA-256 of each source, the
 * compiler's version and the documents each stylesheet reads with document() (the validation worker parses them
 * once). The SEF files are committed: compiling takes 1–3 minutes on a 2-core machine, too long for every fresh clone,
 * build and CI run; lib/pdf/facturx/einvoice-validation.test.ts fails when a source or the compiler no
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
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const validation = path.join(root, 'lib/pdf/facturx/validation');
const out = path.join(validation, 'sef');
const manifestFile = path.join(out, 'manifest.json');
const require = createRequire(import.meta.url);

export const STYLESHEETS = {
  cen: { source: 'schematron/cen-en16931-cii/EN16931-CII-validation.xslt' },
  // Its code lists, read with document(): the validation worker parses them once.
  facturx: { source: 'schematron/facturx-1.0.9/EN16931/Factur-X_1.09_EN16931.xsl', documents: ['FACTUR-X_EN16931_codedb.xml'] },
  fr: { source: 'schematron/fr-ctc/BR-FR-Flux2-Schematron-CII.xslt' },
};

const sha256 = (file) => createHash('sha256').update(readFileSync(file)).digest('hex');
const compiler = () => `xslt3 ${require('xslt3/package.json').version}`;

const force = process.argv.includes('--force');
const previous = existsSync(manifestFile) ? JSON.parse(readFileSync(manifestFile, 'utf8')) : { stylesheets: {} };
const manifest = { compiler: compiler(), stylesheets: {} };
const work = mkdtempSync(path.join(tmpdir(), 'paraphe-sef-'));
try {
  for (const [name, { source, documents }] of Object.entries(STYLESHEETS)) {
    const entry = { source, sha256: sha256(path.join(validation, source)), sef: `${name}.sef.json.gz`, ...(documents ? { documents } : {}) };
    const before = previous.stylesheets?.[name];
    const fresh =
      before &&
      before.sha256 === entry.sha256 &&
      previous.compiler === manifest.compiler &&
      existsSync(path.join(out, entry.sef));
    if (fresh && !force) {
      console.log(`${name}: up to date`);
    } else {
      const started = Date.now();
      const sef = path.join(work, `${name}.sef.json`);
      execFileSync(process.execPath, [require.resolve('xslt3/xslt3.js'), `-xsl:${path.join(validation, source)}`, `-export:${sef}`, '-nogo', '-relocate:on'], {
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      writeFileSync(path.join(out, entry.sef), gzipSync(readFileSync(sef), { level: 9 }));
      console.log(`${name}: compiled in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
    manifest.stylesheets[name] = entry;
  }
  writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
