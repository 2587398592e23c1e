import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * The e-invoice checks a PA runs, with the official artefacts copied in lib/domain/facturx/validation
 * (SOURCES.md): XSD (xmllint), the CEN EN 16931 CII schematron, the Factur-X 1.0.9 EN 16931 schematron and
 * the French BR-FR rules (XSLT 2.0, Saxon-HE on a JVM); and the PDF side with qpdf and poppler. The JVM
 * starts once per schematron for a whole directory of XML files.
 */
const run = promisify(execFile);

export const VALIDATION_DIR = path.join(process.cwd(), 'lib/domain/facturx/validation');
export const XSD = path.join(VALIDATION_DIR, 'xsd/EN16931/Factur-X_EN16931.xsd');
export const SCHEMATRONS = {
  cen: path.join(VALIDATION_DIR, 'schematron/cen-en16931-cii/EN16931-CII-validation.xslt'),
  facturx: path.join(VALIDATION_DIR, 'schematron/facturx-1.0.9/EN16931/Factur-X_1.09_EN16931.xsl'),
  fr: path.join(VALIDATION_DIR, 'schematron/fr-ctc/BR-FR-Flux2-Schematron-CII.xslt'),
} as const;
export type SchematronName = keyof typeof SCHEMATRONS;

export const saxonJar = () => process.env.SAXON_JAR ?? '/usr/share/java/Saxon-HE.jar';

/** A failed assert, or a report (the Factur-X schematron reports elements the profile does not use). */
export interface Finding {
  kind: 'failed-assert' | 'successful-report';
  id: string | null;
  flag: string | null;
  location: string;
  text: string;
}

export interface XmlReport {
  /** xmllint's errors for this file; empty when it validates. */
  xsd: string[];
  cen: Finding[];
  facturx: Finding[];
  fr: Finding[];
}

/** A command found executable on the PATH. */
export const onPath = (command: string) =>
  (process.env.PATH ?? '').split(path.delimiter).some((dir) => {
    try {
      accessSync(path.join(dir, command), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });

/** The tools the checks need that this machine lacks (Debian: libxml2-utils libsaxonhe-java default-jre-headless qpdf poppler-utils). */
export function missingValidators(): string[] {
  const missing = ['xmllint', 'java', 'qpdf', 'pdfdetach', 'pdfinfo', 'pdffonts'].filter((c) => !onPath(c));
  try {
    accessSync(saxonJar(), constants.R_OK);
  } catch {
    missing.push(`Saxon-HE (${saxonJar()})`);
  }
  return missing;
}

const decode = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');

/** The failed asserts and reports of an SVRL document. */
export function parseSvrl(svrl: string): Finding[] {
  const findings: Finding[] = [];
  for (const m of svrl.matchAll(/<svrl:(failed-assert|successful-report)\b([^>]*)>([\s\S]*?)<\/svrl:\1>/g)) {
    const attr = (name: string) => new RegExp(`\\b${name}="([^"]*)"`).exec(m[2]!)?.[1] ?? null;
    const text = /<svrl:text>([\s\S]*?)<\/svrl:text>/.exec(m[3]!)?.[1] ?? '';
    findings.push({
      kind: m[1] as Finding['kind'],
      id: attr('id'),
      flag: attr('flag'),
      location: decode(attr('location') ?? ''),
      text: decode(text).split(/\s+/).join(' ').trim(),
    });
  }
  return findings;
}

/** Runs one schematron over every .xml file of `dir` in a single JVM; SVRL reports land in `out`. */
async function runSchematron(xslt: string, dir: string, out: string) {
  await mkdir(out, { recursive: true });
  await run('java', ['-cp', saxonJar(), 'net.sf.saxon.Transform', `-s:${dir}`, `-xsl:${xslt}`, `-o:${out}`], { maxBuffer: 64 * 1024 * 1024 });
}

/** XSD and the three schematrons over every .xml file of a directory: one report per file name. */
export async function validateXmlDirectory(dir: string): Promise<Map<string, XmlReport>> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.xml')).sort();
  const reports = new Map<string, XmlReport>(files.map((f) => [f, { xsd: [], cen: [], facturx: [], fr: [] }]));
  if (files.length === 0) return reports;

  const work = await mkdtemp(path.join(tmpdir(), 'paraphe-fx-'));
  try {
    const xsd = run('xmllint', ['--noout', '--schema', XSD, ...files.map((f) => path.join(dir, f))], { maxBuffer: 64 * 1024 * 1024 })
      .then(() => '')
      .catch((err: { code?: number; stderr?: string }) => {
        // 3: some file is invalid (its errors are in stderr); anything else: the check itself failed.
        if (err.code !== 3) throw err;
        return err.stderr ?? '';
      });
    const [stderr] = await Promise.all([
      xsd,
      ...(Object.keys(SCHEMATRONS) as SchematronName[]).map((name) => runSchematron(SCHEMATRONS[name], dir, path.join(work, name))),
    ]);
    for (const f of files) {
      const report = reports.get(f)!;
      const full = path.join(dir, f);
      report.xsd = stderr.split('\n').filter((l) => l.startsWith(`${full}:`) || l === `${full} fails to validate`);
      for (const name of Object.keys(SCHEMATRONS) as SchematronName[]) {
        report[name] = parseSvrl(await readFile(path.join(work, name, f), 'utf8'));
      }
    }
    return reports;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

export interface PdfReport {
  /** qpdf --check passed (exit 0, no syntax or stream error). */
  qpdfOk: boolean;
  qpdfOutput: string;
  attachments: string[];
  /** The bytes of the attached factur-x.xml, or null. */
  facturx: Buffer | null;
  /** The XMP metadata packet (pdfinfo -meta). */
  xmp: string;
  fonts: Array<{ name: string; type: string; embedded: boolean }>;
  pages: number;
}

/** qpdf --check, pdfdetach (list, extract factur-x.xml), pdfinfo (-meta, pages) and pdffonts on one file. */
export async function inspectPdf(file: string): Promise<PdfReport> {
  const qpdf = await run('qpdf', ['--check', file]).then(
    (r) => ({ ok: true, out: r.stdout }),
    (err: { stdout?: string; stderr?: string }) => ({ ok: false, out: `${err.stdout ?? ''}${err.stderr ?? ''}` }),
  );
  const list = (await run('pdfdetach', ['-list', file])).stdout;
  const attachments = [...list.matchAll(/^\s*\d+: (.+)$/gm)].map((m) => m[1]!.trim());
  let facturx: Buffer | null = null;
  if (attachments.includes('factur-x.xml')) {
    const dir = await mkdtemp(path.join(tmpdir(), 'paraphe-detach-'));
    try {
      const out = path.join(dir, 'factur-x.xml');
      await run('pdfdetach', ['-savefile', 'factur-x.xml', '-o', out, file]);
      facturx = await readFile(out);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  const xmp = (await run('pdfinfo', ['-meta', file])).stdout;
  const pages = Number(/^Pages:\s+(\d+)/m.exec((await run('pdfinfo', [file])).stdout)?.[1] ?? 0);
  const fonts = (await run('pdffonts', [file])).stdout
    .split('\n')
    .slice(2)
    .filter((l) => l.trim())
    .map((l) => {
      // name, type (may contain spaces), encoding, emb, sub, uni, object, id: the flags are the 3 yes/no before the ids.
      const m = /^(\S+)\s+(.+?)\s+(\S+)\s+(yes|no)\s+(yes|no)\s+(yes|no)\s+\d+\s+\d+\s*$/.exec(l);
      return { name: m?.[1] ?? l, type: m?.[2] ?? '', embedded: m?.[4] === 'yes' };
    });
  return { qpdfOk: qpdf.ok && /No syntax or stream encoding errors/.test(qpdf.out), qpdfOutput: qpdf.out, attachments, facturx, xmp, fonts, pages };
}

/** The value of an XMP simple property (`fx:ConformanceLevel`, `pdfaid:part`…), element or attribute form. */
export function xmpValue(xmp: string, property: string): string | null {
  return new RegExp(`<${property}>([^<]*)</${property}>`).exec(xmp)?.[1] ?? new RegExp(`\\b${property}="([^"]*)"`).exec(xmp)?.[1] ?? null;
}
