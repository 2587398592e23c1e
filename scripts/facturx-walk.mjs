/**
 * Rewrites a compiled ISO Schematron stylesheet (the skeleton's XSLT output, as the CEN, Factur-X and BR-FR
 * validation artefacts are) so that SaxonJS runs it in a fraction of the time, with the same findings
 * (docs/facturx.md, "Where the time goes"):
 *
 * 1. Each `<svrl:active-pattern>` holds an `<xsl:apply-templates/>` in the default mode, whose only rule strips text:
 *    it writes nothing, but walks the whole document (text nodes included) once per pattern — 68 times for Factur-X.
 *    It is removed.
 * 2. Each pattern is a mode that walks the whole document from the root, every element (and attribute) trying that
 *    pattern's rules: 68 walks, each node matched against rules that, for most nodes, name another element. Instead,
 *    one walk (mode `paraphe-walk`) visits the nodes the patterns visited, in document order, and applies to each
 *    node only the pattern modes that have a rule whose last step can match it (its name, or a wildcard). The
 *    pattern modes keep their rules and priorities — which rule of a pattern fires on a node is decided exactly as
 *    before — but no longer recurse. Only the order of the report's entries changes (document order, then pattern).
 *
 * Not done, on purpose: looking the Factur-X code lists up with an `xsl:key` over the pooled code-list document. It
 * saved little (about 3 ms) and SaxonJS keeps each transform's key index on that shared document: 3 MB more per
 * validation, never freed (measured: 1.4 GB of heap after 400 transforms).
 *
 * Plain string work on the skeleton's regular output, checked: a stylesheet that does not have the expected shape is
 * refused rather than half rewritten.
 */

const WALK = 'paraphe-walk';

/** Splits `text` at `separator` characters that are outside brackets, parentheses and quotes. */
function splitTopLevel(text, separator) {
  const parts = [];
  let depth = 0;
  let quote = null;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '[' || c === '(') depth++;
    else if (c === ']' || c === ')') depth--;
    else if (c === separator && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/** Removes the predicates that end a step: `ram:ID[@schemeID]` → `ram:ID`. */
function stripTrailingPredicates(step) {
  let s = step.trim();
  while (s.endsWith(']')) {
    let depth = 0;
    let quote = null;
    let i = s.length - 1;
    for (; i >= 0; i--) {
      const c = s[i];
      if (quote) {
        if (c === quote) quote = null;
      } else if (c === '"' || c === "'") quote = c;
      else if (c === ']') depth++;
      else if (c === '[' && --depth === 0) break;
    }
    if (i < 0) throw new Error(`unbalanced predicate in pattern step ${step}`);
    s = s.slice(0, i).trim();
  }
  return s;
}

const QNAME = /^(?:[A-Za-z_][\w.-]*:)?[A-Za-z_][\w.-]*$/;

/**
 * What the last step of each alternative of a match pattern can match: `{kind: 'element' | 'attribute', name}` for a
 * named node, `{kind, name: null}` for any node of that kind, `{kind: 'document'}` for `/`, `{kind: 'any'}` when the
 * pattern is anything else (a function, a node-kind test): that pattern's mode is then applied to every element and
 * attribute. A mode is applied to the document node only for a rule matching `/`: applied there without one, XSLT's
 * built-in rule would walk the children in that mode a second time.
 */
export function lastSteps(pattern) {
  return splitTopLevel(pattern, '|').map((alternative) => {
    const path = stripTrailingPredicates(alternative);
    if (path === '/') return { kind: 'document' };
    const steps = splitTopLevel(path, '/');
    let step = steps[steps.length - 1].trim();
    if (step.startsWith('child::')) step = step.slice('child::'.length);
    let kind = 'element';
    if (step.startsWith('@')) {
      kind = 'attribute';
      step = step.slice(1);
    } else if (step.startsWith('attribute::')) {
      kind = 'attribute';
      step = step.slice('attribute::'.length);
    }
    // `*`, `ram:*`, `*:ID`: any node of that kind (the pattern mode decides).
    if (step === '*' || /^[A-Za-z_][\w.-]*:\*$/.test(step) || /^\*:[A-Za-z_][\w.-]*$/.test(step)) return { kind, name: null };
    if (QNAME.test(step)) return { kind, name: step };
    return { kind: 'any' };
  });
}

const unescapeXml = (s) =>
  s
    .replace(/&#x([0-9a-fA-F]+);/g, (_, h) => String.fromCodePoint(Number.parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_, d) => String.fromCodePoint(Number(d)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');

const attr = (tag, name) => {
  const m = new RegExp(`\\s${name}\\s*=\\s*"([^"]*)"`).exec(tag);
  return m ? m[1] : null;
};

/** `<xsl:apply-templates mode="M5" select="@*|*" />` in either attribute order. */
const APPLY = /<xsl:apply-templates\s+(?:mode="(M\d+)"\s+select="([^"]*)"|select="([^"]*)"\s+mode="(M\d+)")\s*\/>/g;

export function rewriteSchematron(xsl) {
  // 1. The default-mode walks inside <svrl:active-pattern>.
  let out = xsl.replace(/(<svrl:active-pattern\b[\s\S]*?)<xsl:apply-templates\s*\/>(\s*<\/svrl:active-pattern>)/g, '$1$2');

  // 2. The pattern modes, in the order the root template applies them, and how each recursed.
  const order = [];
  const recursion = new Set();
  out = out.replace(APPLY, (whole, m1, s1, s2, m2) => {
    const mode = m1 ?? m2;
    const select = s1 ?? s2;
    if (select === '/') {
      order.push(mode);
      return '';
    }
    if (select === '@*|*' || select === '*') {
      recursion.add(select);
      return '';
    }
    return whole;
  });
  if (order.length === 0) throw new Error('no pattern mode applied from the root: not an ISO Schematron skeleton output');
  if (recursion.size !== 1) throw new Error(`pattern modes recurse in ${recursion.size} ways (${[...recursion].join(', ')}): expected one`);
  const [select] = recursion;
  if (new RegExp(`mode="(?:${order.join('|')})"`).test(out.replace(/<xsl:template\s[^>]*>/g, ''))) {
    throw new Error('a pattern mode is still used outside its templates: the rewrite would change what it does');
  }

  // What each mode's rules can match (its fall-back templates, text() and @*|node(), left aside).
  const modes = new Map(order.map((m) => [m, { elements: new Set(), attributes: new Set(), anyElement: false, anyAttribute: false, document: false }]));
  for (const [tag] of out.matchAll(/<xsl:template\s[^>]*>/g)) {
    const mode = attr(tag, 'mode');
    const reach = mode && modes.get(mode);
    if (!reach) continue;
    const match = unescapeXml(attr(tag, 'match') ?? '');
    const priority = attr(tag, 'priority');
    if ((match === 'text()' && priority === '-1') || (match === '@*|node()' && priority === '-2')) continue;
    for (const step of lastSteps(match)) {
      if (step.kind === 'document') reach.document = true;
      else if (step.kind === 'any') Object.assign(reach, { anyElement: true, anyAttribute: true });
      else if (step.kind === 'element' && step.name) reach.elements.add(step.name);
      else if (step.kind === 'element') reach.anyElement = true;
      else if (step.name) reach.attributes.add(step.name);
      else reach.anyAttribute = true;
    }
  }

  const visitsAttributes = select === '@*|*';
  const applyModes = (list) => list.map((m) => `<xsl:apply-templates select="." mode="${m}"/>`).join('');
  const modesFor = (test) => order.filter((m) => test(modes.get(m)));
  const templates = [];
  const named = (kind) => [...new Set(order.flatMap((m) => [...modes.get(m)[kind]]))].sort();
  templates.push(
    `<xsl:template match="/" mode="${WALK}">${applyModes(modesFor((r) => r.document))}<xsl:apply-templates select="*" mode="${WALK}"/></xsl:template>`,
  );
  for (const name of named('elements')) {
    templates.push(
      `<xsl:template match="${name}" mode="${WALK}" priority="1">${applyModes(modesFor((r) => r.anyElement || r.elements.has(name)))}<xsl:apply-templates select="${select}" mode="${WALK}"/></xsl:template>`,
    );
  }
  templates.push(
    `<xsl:template match="*" mode="${WALK}" priority="0">${applyModes(modesFor((r) => r.anyElement))}<xsl:apply-templates select="${select}" mode="${WALK}"/></xsl:template>`,
  );
  if (visitsAttributes) {
    for (const name of named('attributes')) {
      templates.push(`<xsl:template match="@${name}" mode="${WALK}" priority="1">${applyModes(modesFor((r) => r.anyAttribute || r.attributes.has(name)))}</xsl:template>`);
    }
    templates.push(`<xsl:template match="@*" mode="${WALK}" priority="0">${applyModes(modesFor((r) => r.anyAttribute))}</xsl:template>`);
  }

  const closing = out.match(/<\/svrl:schematron-output>/g) ?? [];
  if (closing.length !== 1) throw new Error(`expected one </svrl:schematron-output>, found ${closing.length}`);
  out = out.replace('</svrl:schematron-output>', `<xsl:apply-templates select="/" mode="${WALK}"/></svrl:schematron-output>`);
  const end = out.lastIndexOf('</xsl:stylesheet>');
  if (end < 0) throw new Error('no </xsl:stylesheet>');
  out = `${out.slice(0, end)}<!-- ${WALK}: one walk applying each node only the patterns that can match it (scripts/facturx-walk.mjs) -->\n${templates.join('\n')}\n${out.slice(end)}`;
  return { xsl: out, patterns: order.length, elementNames: named('elements').length };
}
