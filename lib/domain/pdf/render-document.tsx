import { renderToBuffer } from '@react-pdf/renderer';
import { PDFDocument } from 'pdf-lib';
import { buildFacturX, FACTURX_CONFORMANCE, isEInvoice } from '@/lib/domain/facturx';
import { type PdfAOptions, toPdfA3 } from './pdfa';
import { FONT_FAMILY, FONT_STACK, printableModel, registerFonts } from './fonts';
import { likelyOnOnePage } from './page-estimate';
import { LABELS } from './i18n';
import type { RenderModel } from './model';
import { InvoiceDocument } from './template';

export interface RenderedDocument {
  pdf: Uint8Array;
  /** The embedded factur-x.xml; null for a quote or a draft. */
  xml: string | null;
  /** Factur-X conformance level of the XML, or null. */
  profile: string | null;
  /** Download name: the number ("FAC-2026-00001.pdf"), slashes made dashes. */
  fileName: string;
}

export function fileNameOf(m: Pick<RenderModel, 'number' | 'type' | 'language' | 'id'>): string {
  const base = m.number ?? `${LABELS[m.language].kind[m.type]}-${LABELS[m.language].draft}-${m.id.slice(0, 8)}`;
  return `${base.replace(/[^A-Za-z0-9+_-]+/g, '-')}.pdf`;
}

/** CPU milliseconds (user + system) per stage of a render, added up over the renders given the same object (bench:pdf). */
export type RenderStages = Record<'printable' | 'react-pdf' | 'pdf-lib parse' | 'factur-x xml' | 'pdf/a-3', number>;

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** Runs one stage, its CPU time added to `stages` when given. */
async function stage<T>(stages: Partial<RenderStages> | undefined, name: keyof RenderStages, run: () => T | Promise<T>): Promise<T> {
  if (!stages) return run();
  const started = cpuMs();
  try {
    return await run();
  } finally {
    stages[name] = (stages[name] ?? 0) + cpuMs() - started;
  }
}

/**
 * The document as a file. A finalized document is a PDF/A-3b; an invoice, deposit invoice or credit note
 * also carries its Factur-X EN 16931 XML. A draft (preview only) is the plain PDF, watermarked.
 */
export async function renderDocument(m: RenderModel, stages?: Partial<RenderStages>): Promise<RenderedDocument> {
  registerFonts();
  // Only characters the embedded fonts have (a missing one would be set in react-pdf's non-embedded Helvetica).
  const printed = await stage(stages, 'printable', () => printableModel(m));
  // Text Liberation Sans covers is set in it alone: react-pdf then loads no Noto font (the same file, see fonts.ts).
  const { raw, parsed } = await layOut(printed.value, printed.fallbacks ? FONT_STACK : [FONT_FAMILY], stages);
  const fileName = fileNameOf(m);
  if (m.draft || !m.finalized_at) return { pdf: new Uint8Array(raw), xml: null, profile: null, fileName };

  const xml = isEInvoice(m.type) ? await stage(stages, 'factur-x xml', () => buildFacturX(m)) : null;
  const pdf = await stage(stages, 'pdf/a-3', () => toPdfA3(parsed, pdfA3Options(m, xml)));
  return { pdf, xml, profile: xml ? FACTURX_CONFORMANCE : null, fileName };
}

/** The PDF/A-3 metadata of a finalized document, and its Factur-X XML when it has one. */
export function pdfA3Options(m: RenderModel, xml: string | null): PdfAOptions {
  const kind = LABELS[m.language].kind[m.type];
  return {
    title: `${kind} ${m.number}`,
    author: m.seller.legal_name ?? m.seller.name,
    subject: `${kind} ${m.number} — ${m.buyer.name ?? ''}`.trim(),
    language: m.language === 'fr' ? 'fr-FR' : 'en-GB',
    date: m.finalized_at!,
    fileId: m.id,
    ...(xml ? { facturx: xml } : {}),
  };
}

/**
 * react-pdf's file of the document, and the same parsed by pdf-lib. Most documents take one page: they are laid out
 * as one first (InvoiceDocument's `singlePage`, which spares react-pdf a relayout of the page per page-number render
 * prop, about a fifth of a render), and again with the render props when that took more than one page. A document
 * that likely takes more (page-estimate.ts) is laid out with them at once: the one-page attempt would be thrown away
 * (it was 45 % of a 2-page invoice's render). The guess decides only the order: either way the same file.
 */
async function layOut(model: RenderModel, fontFamily: string[], stages?: Partial<RenderStages>): Promise<{ raw: Uint8Array; parsed: PDFDocument }> {
  const once = async (singlePage: boolean) => {
    const raw = await stage(stages, 'react-pdf', () => renderToBuffer(<InvoiceDocument model={model} singlePage={singlePage} fontFamily={fontFamily} />));
    // React's scheduler lets go of the finished react-pdf root in a macrotask: renders chained without a turn of the
    // event loop (a busy worker, a benchmark) would keep every root alive (diegomura/react-pdf#3051).
    await new Promise<void>((resolve) => setImmediate(resolve));
    return { raw, parsed: await stage(stages, 'pdf-lib parse', () => PDFDocument.load(raw, { updateMetadata: false })) };
  };
  if (!likelyOnOnePage(model)) return once(false);
  const single = await once(true);
  return single.parsed.getPageCount() === 1 ? single : once(false);
}
