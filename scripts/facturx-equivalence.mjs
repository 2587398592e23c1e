/**
 * Proves a rewritten schematron (scripts/facturx-walk.mjs) reports what the official one does: both compiled
 * stylesheets run over the same documents — the Factur-X samples kept in the repository and, from each, mutated
 * copies (elements deleted, emptied, duplicated, values and attributes replaced: documents that break many rules) —
 * and every `failed-assert` and `successful-report` (id, flag, location, text) and every `fired-rule` context must
 * be the same, as multisets (the rewrite changes only their order). Used by scripts/compile-facturx.mjs before it
 * keeps a rewritten SEF.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const SaxonJS = require('saxon-js');

/** A small deterministic generator, so that a failure names a document one can rebuild. */
function random(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const LEAF = /<([A-Za-z]+:[A-Za-z]+)((?:\s[^>]*)?)>([^<]*)<\/\1>/g;
const VALUES = ['', 'ZZ', '-5.00', '123456789.123', '0', '20991231', '19991231', 'XX9', ' padded ', 'FR', 'S', '999'];

/** The element opened at `start` (`<name…>`), up to its matching close tag. */
function elementEnd(xml, start, name) {
  const open = new RegExp(`<${name}[\\s>/]|</${name}>`, 'g');
  open.lastIndex = start + 1;
  let depth = 1;
  for (let m = open.exec(xml); m; m = open.exec(xml)) {
    depth += m[0].startsWith('</') ? -1 : 1;
    if (depth === 0) return m.index + m[0].length;
  }
  return -1;
}

function mutate(xml, rnd) {
  const pick = (n) => Math.floor(rnd() * n);
  const kind = pick(5);
  if (kind <= 2) {
    const leaves = [...xml.matchAll(LEAF)];
    if (leaves.length === 0) return xml;
    const leaf = leaves[pick(leaves.length)];
    const [whole, name, attrs] = leaf;
    const at = leaf.index;
    const replaced =
      kind === 0 ? '' : kind === 1 ? `<${name}${attrs}>${VALUES[pick(VALUES.length)]}</${name}>` : `${whole}${whole}`;
    return xml.slice(0, at) + replaced + xml.slice(at + whole.length);
  }
  if (kind === 3) {
    const opens = [...xml.matchAll(/<([A-Za-z]+:[A-Za-z]+)(?:\s[^>]*)?>(?=<)/g)].filter((m) => m.index > xml.indexOf('>', xml.indexOf('<rsm:')));
    if (opens.length === 0) return xml;
    const open = opens[pick(opens.length)];
    const end = elementEnd(xml, open.index, open[1]);
    return end < 0 ? xml : xml.slice(0, open.index) + xml.slice(end);
  }
  const attrs = [...xml.matchAll(/\s([A-Za-z]+)="([^"]*)"/g)].filter((m) => !m[1].startsWith('xmlns'));
  if (attrs.length === 0) return xml;
  const a = attrs[pick(attrs.length)];
  return `${xml.slice(0, a.index)} ${a[1]}="${VALUES[1 + pick(VALUES.length - 1)]}"${xml.slice(a.index + a[0].length)}`;
}

/** The documents both stylesheets run over: each base as is, then `perBase` mutated copies of it. */
export function corpus(bases, perBase, seed = 12016) {
  const rnd = random(seed);
  const docs = [];
  for (const base of bases) {
    const compact = base.replace(/>\s+</g, '><');
    docs.push(base, compact);
    for (let i = 0; i < perBase; i++) {
      let xml = compact;
      const steps = 1 + Math.floor(rnd() * 3);
      for (let k = 0; k < steps; k++) xml = mutate(xml, rnd);
      docs.push(xml);
    }
  }
  return docs;
}

/** The report as a sorted list of its entries. */
function entries(svrl) {
  const out = [];
  for (const m of svrl.matchAll(/<svrl:(failed-assert|successful-report|fired-rule)\b([^>]*?)(?:\/>|>([\s\S]*?)<\/svrl:\1>)/g)) {
    const attrs = [...m[2].matchAll(/\s(\w+)="([^"]*)"/g)]
      .map(([, k, v]) => `${k}=${v}`)
      .sort()
      .join(' ');
    const text = (m[3] ?? '').replace(/<[^>]+>/g, '').replace(/\s+/g, ' ').trim();
    out.push(`${m[1]} ${attrs} ${text}`);
  }
  return out.sort();
}

function run(stylesheet, xml) {
  const sourceNode = SaxonJS.getPlatform().parseXmlFromString(xml);
  return SaxonJS.transform({ ...stylesheet, sourceNode, destination: 'serialized' }, 'sync').principalResult;
}

/**
 * `official` and `rewritten`: SaxonJS transform options without the source (`stylesheetInternal`,
 * `stylesheetBaseURI`, `documentPool`). Answers the number of documents compared and of findings seen, or throws on
 * the first document whose reports differ. `skipped`: documents both stop on with an error.
 */
export function compareReports(official, rewritten, docs) {
  let findings = 0;
  let skipped = 0;
  for (const [i, xml] of docs.entries()) {
    let a;
    try {
      a = entries(run(official, xml));
    } catch {
      // A document the official stylesheet stops on (a value no XPath cast accepts) must stop the rewritten one too.
      let stopped = false;
      try {
        run(rewritten, xml);
      } catch {
        stopped = true;
      }
      if (!stopped) throw new Error(`document ${i}: the official stylesheet stops on it, the rewritten one does not`);
      skipped++;
      continue;
    }
    const b = entries(run(rewritten, xml));
    findings += a.filter((e) => !e.startsWith('fired-rule')).length;
    if (a.length !== b.length || a.some((e, k) => e !== b[k])) {
      const missing = a.filter((e) => !b.includes(e)).slice(0, 3);
      const extra = b.filter((e) => !a.includes(e)).slice(0, 3);
      throw new Error(`document ${i}: the reports differ (${a.length} vs ${b.length} entries)\nonly official: ${missing.join('\n')}\nonly rewritten: ${extra.join('\n')}`);
    }
  }
  return { documents: docs.length - skipped, findings, skipped };
}
