/** A node of the XML being written: an element, or null/false for an element left out. */
export type XmlNode = XmlElement | null | undefined | false | '';

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[] | string;
}

const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttr = (s: string) => escapeText(s).replace(/"/g, '&quot;');
// XML 1.0 forbids C0 controls other than tab, LF and CR: drop them rather than emit a file no parser reads.
// biome-ignore lint/suspicious/noControlCharactersInRegex: this is the list of forbidden characters
const clean = (s: string) => s.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '');

/** `el('ram:ID', 'FAC-1')`, `el('ram:ID', {schemeID: '0002'}, '732829320')`, `el('ram:X', [child, …])`. */
export function el(name: string, ...rest: [Record<string, string>, (XmlNode[] | string)?] | [(XmlNode[] | string)?]): XmlElement {
  const [first, second] = rest;
  if (first !== undefined && typeof first === 'object' && !Array.isArray(first)) {
    return { name, attrs: first, children: second ?? [] };
  }
  return { name, attrs: {}, children: (first as XmlNode[] | string | undefined) ?? [] };
}

/** Serializes with two-space indentation; text-only elements stay on one line. */
export function serialize(root: XmlElement): string {
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const write = (node: XmlElement, depth: number) => {
    const pad = '  '.repeat(depth);
    const attrs = Object.entries(node.attrs)
      .map(([k, v]) => ` ${k}="${escapeAttr(clean(v))}"`)
      .join('');
    if (typeof node.children === 'string') {
      out.push(`${pad}<${node.name}${attrs}>${escapeText(clean(node.children))}</${node.name}>`);
      return;
    }
    const children = node.children.filter((c): c is XmlElement => Boolean(c));
    if (children.length === 0) {
      out.push(`${pad}<${node.name}${attrs}/>`);
      return;
    }
    out.push(`${pad}<${node.name}${attrs}>`);
    for (const child of children) write(child, depth + 1);
    out.push(`${pad}</${node.name}>`);
  };
  write(root, 0);
  return `${out.join('\n')}\n`;
}
