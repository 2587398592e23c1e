import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { JvmSchematron, jvmAvailable } from './jvm-schematron';
import { type Finding, parseSvrl, VALIDATION_DIR, XSD } from './validate';
import { inSpan } from '@/lib/platform/telemetry';
import { log } from '@/lib/platform/log';

/**
 * The checks a PA runs on a Factur-X EN 16931 CII: the Factur-X XSD (libxml2 compiled to WebAssembly, libxml2-wasm,
 * in a worker thread) and the three schematrons — CEN EN 16931, Factur-X 1.0.9, French BR-FR — by one of two engines
 * that report the same (docs/facturx.md "Two engines", proved by jvm-schematron.test.ts):
 * - `jvm`: Saxon-HE on a JVM running the official stylesheets (jvm-schematron.ts), six times cheaper in CPU; the
 *   default when Java and the Saxon-HE jar are installed;
 * - `saxonjs`: SaxonJS SEF compiled from the official XSLT rewritten to walk the document once (npm run
 *   facturx:compile, committed), in two worker threads: no JVM needed.
 * `EINVOICE_VALIDATOR=jvm|saxonjs` chooses; a JVM chosen by default that cannot start falls back to SaxonJS.
 */
export type EInvoiceLayer = 'xsd' | 'en16931' | 'facturx' | 'br-fr';

export interface EInvoiceError {
  /** The rule's id as its authors name it: `BR-CO-10`, `BR-FR-12`, `FX-SCH-A-000226`, `XSD`. */
  rule: string;
  message: string;
  /** The business term (`BT-106`, `BG-23`) the rule concerns, else where in the XML it failed. */
  field: string | null;
  layer: EInvoiceLayer;
}

type Schematron = 'cen' | 'facturx' | 'fr';

const LAYERS: Record<Schematron, EInvoiceLayer> = { cen: 'en16931', facturx: 'facturx', fr: 'br-fr' };

interface SefManifest {
  compiler: string;
  /** SHA-256 of scripts/facturx-walk.mjs, the rewrite applied to each official stylesheet before compiling it. */
  rewrite: string;
  /** `documents`: files the stylesheet reads with document(), relative to its source; parsed once per worker. */
  stylesheets: Record<Schematron, { source: string; sha256: string; sef: string; documents?: string[] }>;
}

export const SEF_DIR = path.join(VALIDATION_DIR, 'sef');
export const readSefManifest = (): SefManifest => JSON.parse(readFileSync(path.join(SEF_DIR, 'manifest.json'), 'utf8'));

// The Factur-X schematron alone takes about as long as the two others and the XSD together: one worker each way.
const WORKER_GROUPS: Array<{ xsd: boolean; stylesheets: Schematron[] }> = [
  { xsd: false, stylesheets: ['facturx'] },
  { xsd: true, stylesheets: ['cen', 'fr'] },
];
/** With the JVM engine, the worker thread checks the XSD only. */
const XSD_ONLY = { xsd: true, stylesheets: [] };

export type SchematronEngine = 'jvm' | 'saxonjs';

interface Reports {
  /** Each stylesheet's SVRL. */
  reports: Record<string, string>;
  /** libxml2's errors, from the worker that checks the XSD. */
  xsd: Array<{ message: string; line: number | null; xpath: string | null }> | null;
  /** SaxonJS could not parse the document (then `reports` is empty): why. */
  unparsable?: string;
  /** From the worker that checks the XSD: whether libxml2 could parse the document at all. */
  wellFormed?: boolean | null;
}
const WORKER_FILE = path.join(process.cwd(), 'lib/domain/facturx/schematron-worker.mjs');

interface Pending {
  resolve: (reports: Reports) => void;
  reject: (err: Error) => void;
}

class SchematronWorker {
  private worker: Worker | null = null;
  private ready: Promise<void> | null = null;
  private readonly pending = new Map<number, Pending>();
  private next = 0;

  constructor(private readonly group: (typeof WORKER_GROUPS)[number]) {}

  private get names() {
    return [...(this.group.xsd ? ['xsd'] : []), ...this.group.stylesheets];
  }

  private start(): Promise<void> {
    const manifest = readSefManifest();
    const worker = new Worker(WORKER_FILE, {
      workerData: {
        validationDir: VALIDATION_DIR,
        xsd: this.group.xsd ? XSD : null,
        stylesheets: this.group.stylesheets.map((name) => ({ name, ...manifest.stylesheets[name] })),
      },
    });
    // An idle worker must not keep a CLI or a test process alive.
    worker.unref();
    this.worker = worker;
    return new Promise<void>((resolve, reject) => {
      const fail = (err: Error) => {
        // The next call starts a fresh worker; the calls in flight are refused with the cause.
        this.worker = null;
        this.ready = null;
        reject(err);
        for (const p of this.pending.values()) p.reject(err);
        this.pending.clear();
      };
      worker.on('message', (msg: { ready?: true; id?: number; error?: string } & Partial<Reports>) => {
        if (msg.ready) return resolve();
        const p = this.pending.get(msg.id!);
        if (!p) return;
        this.pending.delete(msg.id!);
        if (this.pending.size === 0) worker.unref();
        if (msg.error) p.reject(new Error(`e-invoice validation ${this.names.join('+')}: ${msg.error}`));
        else p.resolve({ reports: msg.reports!, xsd: msg.xsd ?? null, unparsable: msg.unparsable, wellFormed: msg.wellFormed });
      });
      worker.on('error', fail);
      worker.on('exit', (code) => fail(new Error(`schematron worker exited with code ${code}`)));
    });
  }

  async run(xml: string): Promise<Reports> {
    this.ready ??= this.start();
    await this.ready;
    const worker = this.worker!;
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      // Held while a validation is in flight, so that the process waits for its answer.
      worker.ref();
      worker.postMessage({ id, xml });
    });
  }
}

interface Engines {
  /** Chosen by default rather than by EINVOICE_VALIDATOR: then a JVM that cannot start falls back to SaxonJS. */
  byDefault: boolean;
  engine: SchematronEngine;
  saxonjs?: SchematronWorker[];
  xsd?: SchematronWorker;
  jvm?: JvmSchematron;
}
const key = Symbol.for('paraphe.einvoice-validation');
type G = typeof globalThis & { [key]?: Engines };

/** One set of engines per process (Next.js may load this file in several bundles). */
function engines(): Engines {
  const g = globalThis as G;
  if (!g[key]) {
    const asked = process.env.EINVOICE_VALIDATOR;
    if (asked && asked !== 'jvm' && asked !== 'saxonjs') throw new Error(`EINVOICE_VALIDATOR must be jvm or saxonjs, not "${asked}"`);
    g[key] = { byDefault: !asked, engine: (asked as SchematronEngine | undefined) ?? (jvmAvailable() ? 'jvm' : 'saxonjs') };
  }
  return g[key];
}

/** The engine that runs the schematrons in this process. */
export const schematronEngine = (): SchematronEngine => engines().engine;

/** Runs the schematrons of this process by `engine` from now on (the test that compares the engines). */
export function setSchematronEngine(engine: SchematronEngine): void {
  const e = engines();
  e.engine = engine;
  e.byDefault = false;
}

/** Each engine's answer, as the SaxonJS workers give it. */
async function reportsOf(xml: string): Promise<Reports[]> {
  const e = engines();
  let calls: Array<Promise<Reports>>;
  if (e.engine === 'jvm' && !(await startJvm(e))) return reportsOf(xml);
  if (e.engine === 'jvm') {
    e.xsd ??= new SchematronWorker(XSD_ONLY);
    calls = [e.xsd.run(xml), e.jvm!.run(xml).then((r) => ({ reports: r.reports, xsd: null, unparsable: r.unparsable }))];
  } else {
    e.saxonjs ??= WORKER_GROUPS.map((group) => new SchematronWorker(group));
    calls = e.saxonjs.map((w) => w.run(xml));
  }
  const settled = await Promise.allSettled(calls);
  const answers = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  // What is not XML is refused for that alone: SaxonJS's parser reads some of it (a broken XML declaration) where
  // libxml2 and Saxon-HE do not, and rules checked, or stylesheets stopped, on a guess would differ between engines.
  if (answers.some((r) => r.wellFormed === false)) return answers.map((r) => ({ ...r, reports: {}, unparsable: undefined }));
  const failed = settled.find((s) => s.status === 'rejected');
  if (failed) throw failed.reason;
  return answers;
}

/**
 * Starts the engine now (the JVM compiles the stylesheets: several seconds), so that the first finalization does not
 * wait for it. The worker process calls it at start.
 */
export async function warmUpEInvoiceValidation(): Promise<void> {
  const e = engines();
  if (e.engine === 'jvm') await startJvm(e).catch(() => undefined);
}

/**
 * The JVM running (false: it could not start and, chosen by default, SaxonJS replaces it in this process). A JVM that
 * EINVOICE_VALIDATOR=jvm asked for and that cannot start is an error.
 */
async function startJvm(e: Engines): Promise<boolean> {
  e.jvm ??= new JvmSchematron();
  try {
    await e.jvm.warmUp();
    return true;
  } catch (err) {
    if (!e.byDefault) throw err;
    log.warn(`e-invoice validation: the Saxon JVM did not start, SaxonJS is used instead (${(err as Error).message})`);
    e.engine = 'saxonjs';
    return false;
  }
}

const XSD_NAMESPACES = /\{urn:un:unece:uncefact:data:standard:[A-Za-z]+:100\}/g;

function xsdError(e: NonNullable<Reports['xsd']>[number]): EInvoiceError {
  return {
    rule: 'XSD',
    message: e.message.replace(XSD_NAMESPACES, ''),
    field: e.xpath ?? (e.line ? `line ${e.line}` : null),
    layer: 'xsd',
  };
}

/** A warning or an information does not refuse the document; a fatal, an error, or an unflagged Factur-X finding does. */
const refuses = (f: Finding) => f.flag !== 'warning' && f.flag !== 'information';

const TERM = /\b(B[TG]-\d+)\b/;

/** The SVRL location without namespace predicates: /*:CrossIndustryInvoice[1]/*:SupplyChainTradeTransaction[1]/… */
const shortLocation = (location: string) => location.replace(/\*:([A-Za-z]+)\[namespace-uri\(\)='[^']*'\]/g, '$1').replace(/Q\{[^}]*\}/g, '') || null;

export function findingToError(layer: EInvoiceLayer, f: Finding): EInvoiceError {
  // CEN and Factur-X messages start with "[BR-CO-10]-"; BR-FR ids read "BR-FR-12_BT-49", their messages "BR-FR-12/BT-49 : …".
  const bracket = /^\[([A-Z][A-Z0-9-]*)\]\s*-?\s*/.exec(f.text);
  const [idRule, idTerm] = (f.id ?? '').split('_');
  const rule = bracket?.[1] ?? (idRule || 'FX-NOT-IN-PROFILE');
  const message = bracket ? f.text.slice(bracket[0].length) : f.text;
  const term = (idTerm && TERM.exec(idTerm)?.[1]) ?? TERM.exec(message)?.[1] ?? null;
  return { rule, message, field: term ?? shortLocation(f.location), layer };
}

async function validate(xml: string): Promise<EInvoiceError[]> {
  const results = await reportsOf(xml);
  const structure = results.flatMap((r) => r.xsd ?? []).map(xsdError);
  // Never "no error" for a document a schematron could not even read, should libxml2 have parsed it.
  const unparsable = results.find((r) => r.unparsable)?.unparsable;
  if (unparsable && structure.length === 0) structure.push({ rule: 'XSD', message: unparsable, field: null, layer: 'xsd' });
  const svrl: Record<string, string> = Object.assign({}, ...results.map((r) => r.reports));
  const rules = (['cen', 'facturx', 'fr'] as const).flatMap((name) =>
    parseSvrl(svrl[name] ?? '')
      .filter(refuses)
      .map((f) => findingToError(LAYERS[name], f)),
  );
  return [...structure, ...rules];
}

/**
 * The result of a validation depends on the XML alone: the last ones are kept by the XML's SHA-256 (and a validation
 * in flight is shared), so that the draft's preview, the check before the chain lock and the one under it validate a
 * document once. Bounded, oldest dropped first.
 */
const CACHE_SIZE = 256;
const cacheKey = Symbol.for('paraphe.einvoice-validation.cache');
type C = typeof globalThis & { [cacheKey]?: { results: Map<string, Promise<EInvoiceError[]>>; validations: number; reused: number } };

function cache() {
  const g = globalThis as C;
  g[cacheKey] ??= { results: new Map(), validations: 0, reused: 0 };
  return g[cacheKey];
}

/** How many documents were validated and how many answers came from the cache, since the process started. */
export function einvoiceValidationStats(): { validations: number; reused: number } {
  const { validations, reused } = cache();
  return { validations, reused };
}

/**
 * Every rule the CII breaks, in layer order (XSD, EN 16931, Factur-X, BR-FR); empty when a PA would accept it.
 * Warnings are left out.
 */
export async function validateEInvoice(xml: string): Promise<EInvoiceError[]> {
  const c = cache();
  const key = createHash('sha256').update(xml).digest('hex');
  const known = c.results.get(key);
  if (known) {
    c.reused++;
    // Most recently used last.
    c.results.delete(key);
    c.results.set(key, known);
    return structuredClone(await known);
  }
  c.validations++;
  const pending = inSpan('einvoice validation', { attributes: { 'paraphe.einvoice.engine': schematronEngine() } }, () => validate(xml));
  c.results.set(key, pending);
  if (c.results.size > CACHE_SIZE) c.results.delete(c.results.keys().next().value!);
  // A failure of the validator itself (a worker crashed) is not a result: the next call tries again.
  pending.catch(() => c.results.delete(key));
  return structuredClone(await pending);
}
