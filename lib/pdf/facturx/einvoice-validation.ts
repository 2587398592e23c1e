import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { validateXML, type XMLFileInfo } from 'xmllint-wasm';
import { type Finding, parseSvrl, VALIDATION_DIR, XSD } from './validate';

/**
 * The checks a PA runs on a Factur-X EN 16931 CII, in Node without a JVM: the Factur-X XSD (libxml2 compiled to
 * WebAssembly, xmllint-wasm) and the three schematrons — CEN EN 16931, Factur-X 1.0.9, French BR-FR — as SaxonJS SEF
 * compiled from the official XSLT (npm run facturx:compile, committed: docs/facturx.md "Validation before sealing").
 * The SEF files are loaded once per process into two worker threads that keep them, so a validation costs the
 * transforms only and never blocks the event loop.
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
  stylesheets: Record<Schematron, { source: string; sha256: string; sef: string }>;
}

export const SEF_DIR = path.join(VALIDATION_DIR, 'sef');
export const readSefManifest = (): SefManifest => JSON.parse(readFileSync(path.join(SEF_DIR, 'manifest.json'), 'utf8'));

// The Factur-X schematron alone takes about as long as the two others together: one worker each way.
const WORKER_GROUPS: Schematron[][] = [['facturx'], ['cen', 'fr']];
const WORKER_FILE = path.join(process.cwd(), 'lib/pdf/facturx/schematron-worker.mjs');

interface Pending {
  resolve: (reports: Record<string, string>) => void;
  reject: (err: Error) => void;
}

class SchematronWorker {
  private worker: Worker | null = null;
  private ready: Promise<void> | null = null;
  private readonly pending = new Map<number, Pending>();
  private next = 0;

  constructor(private readonly names: Schematron[]) {}

  private start(): Promise<void> {
    const manifest = readSefManifest();
    const worker = new Worker(WORKER_FILE, {
      workerData: { validationDir: VALIDATION_DIR, stylesheets: this.names.map((name) => ({ name, ...manifest.stylesheets[name] })) },
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
      worker.on('message', (msg: { ready?: true; id?: number; reports?: Record<string, string>; error?: string }) => {
        if (msg.ready) return resolve();
        const p = this.pending.get(msg.id!);
        if (!p) return;
        this.pending.delete(msg.id!);
        if (this.pending.size === 0) worker.unref();
        if (msg.error) p.reject(new Error(`schematron ${this.names.join('+')}: ${msg.error}`));
        else p.resolve(msg.reports!);
      });
      worker.on('error', fail);
      worker.on('exit', (code) => fail(new Error(`schematron worker exited with code ${code}`)));
    });
  }

  async run(xml: string): Promise<Record<string, string>> {
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

const key = Symbol.for('paraphe.einvoice-validation');
type G = typeof globalThis & { [key]?: SchematronWorker[] };

/** One set of workers per process (Next.js may load this file in several bundles). */
function workers(): SchematronWorker[] {
  const g = globalThis as G;
  g[key] ??= WORKER_GROUPS.map((names) => new SchematronWorker(names));
  return g[key];
}

let xsdFiles: { schema: XMLFileInfo; preload: XMLFileInfo[] } | null = null;

function xsd() {
  if (!xsdFiles) {
    const dir = path.dirname(XSD);
    const files = readdirSync(dir)
      .filter((f) => f.endsWith('.xsd'))
      .map((fileName) => ({ fileName, contents: readFileSync(path.join(dir, fileName), 'utf8') }));
    xsdFiles = { schema: files.find((f) => f.fileName === path.basename(XSD))!, preload: files.filter((f) => f.fileName !== path.basename(XSD)) };
  }
  return xsdFiles;
}

async function xsdErrors(xml: string): Promise<EInvoiceError[]> {
  const { schema, preload } = xsd();
  const result = await validateXML({ xml: [{ fileName: 'factur-x.xml', contents: xml }], schema, preload });
  return result.errors.map((e) => ({
    rule: 'XSD',
    message: e.message.replace(/^Schemas validity error : /, '').replace(/\{urn:un:unece:uncefact:data:standard:[A-Za-z]+:100\}/g, ''),
    field: e.loc ? `line ${e.loc.lineNumber}` : null,
    layer: 'xsd' as const,
  }));
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

/**
 * Every rule the CII breaks, in layer order (XSD, EN 16931, Factur-X, BR-FR); empty when a PA would accept it.
 * Warnings are left out.
 */
export async function validateEInvoice(xml: string): Promise<EInvoiceError[]> {
  const [structure, ...reports] = await Promise.all([xsdErrors(xml), ...workers().map((w) => w.run(xml))]);
  const svrl: Record<string, string> = Object.assign({}, ...reports);
  const rules = (['cen', 'facturx', 'fr'] as const).flatMap((name) =>
    parseSvrl(svrl[name] ?? '')
      .filter(refuses)
      .map((f) => findingToError(LAYERS[name], f)),
  );
  return [...structure, ...rules];
}
