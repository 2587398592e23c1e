#!/usr/bin/env node
// Import circles between units (issue 32: "0 runtime import circles at file and folder level"). dpdm (npm run
// check:circles) refuses a circle of files; two units can still lean on each other through files that form no
// file circle (platform/openapi → platform/events → platform/openapi through different files), which makes them one
// unit in all but name. This check builds the graph unit → unit of runtime imports and refuses any strongly
// connected component of more than one unit (Tarjan), printing its arrows with one example import each
// (`file: spec`) and, for every arrow, the shortest cycle through it.
// - units: lib/platform/<u>, lib/domain/<m> (as scripts/check-imports.mjs names them), 'composition', 'app' (app/
//   and the Next.js entry files at the root), 'components', 'db', 'scripts';
// - runtime imports only: `import type` / `export type` and imports whose every name is `type X` vanish at run time
//   and are ignored (as dpdm --transform does). Dynamic `import('…')` is counted: it defers the load, not the
//   dependency (the module still needs the other at run time), so it cannot hide a circle; `typeof import('…')`
//   and `import('…').Type` are types and are not;
// - test code (`*.test.ts(x)`, `testing.ts` / `testing/` helpers, lib/testing) is left out: it may import anything.
// Exits 1 if any circle is found.
import path from 'node:path';
import { blankComments, isTestCode, read, sourceFiles, unitOf } from './source-units.mjs';

const SCANNED = ['lib', 'app', 'components', 'db', 'scripts', 'instrumentation.ts', 'proxy.ts'];
const EXTENSIONS = ['', '.ts', '.tsx', '.mts', '.mjs', '.js', '/index.ts', '/index.tsx'];

// Matched on the code with comments and string contents blanked (an `import "…"` quoted in a message is no import);
// the specifier is then read from the source at the same place. Groups: 1 `type` of `import type`/`export type`,
// 2 the clause — `a`, `{ … }`, `a, { … }`, `* as a` or `*`, nothing longer, so `export const …` never swallows the
// next import —, 3 the specifier; 4 a side-effect import's specifier.
const STATIC = /(?:^|[\s;}])(?:import|export)(\s+type)?\s*((?:[\w$]+\s*,\s*)?(?:\{[^}]*\}|\*(?:\s*as\s+[\w$]+)?)|[\w$]+)\s*from\s*(['"][^'"\n]*['"])|(?:^|[\s;])import\s*(['"][^'"\n]*['"])/dg;
// A dynamic import(); not `typeof import('…')` nor `import('…').Name`, which are types (`.then` and the like are not).
const DYNAMIC = /(?<!typeof\s*)\bimport\s*\(\s*(['"`][^'"`\n]*['"`])\s*\)(?!\s*\.\s*(?!then\b|catch\b|finally\b)[\w$])/dg;

/** True when every name of an import clause is `type X` (`import { type A, type B } from …` is elided whole). */
function onlyTypeNames(clause) {
  const braces = /^\{([^}]*)\}$/.exec(clause.trim());
  if (!braces) return false;
  const names = braces[1].split(',').map((s) => s.trim()).filter(Boolean);
  return names.length > 0 && names.every((name) => /^type\s/.test(name));
}

/** The runtime imports of a source text: their specifiers, static ones first. */
export function runtimeImports(text) {
  const code = blankComments(text, { strings: true });
  const specifier = ([start, end]) => text.slice(start + 1, end - 1);
  const specs = [];
  for (const m of code.matchAll(STATIC)) {
    if (m[4]) specs.push(specifier(m.indices[4]));
    else if (!m[1] && !onlyTypeNames(m[2])) specs.push(specifier(m.indices[3]));
  }
  for (const m of code.matchAll(DYNAMIC)) specs.push(specifier(m.indices[1]));
  return specs;
}

/** The file (relative to root) a specifier of `from` names, or null for a package or a file that is not there. */
function resolve(from, spec, exists) {
  let base;
  if (spec.startsWith('@/')) base = spec.slice(2);
  else if (spec.startsWith('.')) base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  else return null;
  for (const ext of EXTENSIONS) if (exists(base + ext)) return base + ext;
  return exists(base.replace(/\.js$/, '.ts')) ? base.replace(/\.js$/, '.ts') : null;
}

/** Tarjan's strongly connected components of `graph` (Map node → Set of nodes). */
export function stronglyConnected(graph) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  let next = 0;
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      components.push(component.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return components;
}

/** The shortest path from `from` to `to` inside `members` (breadth first), as a list of nodes. */
function shortestPath(graph, members, from, to) {
  const previous = new Map([[from, null]]);
  const queue = [from];
  while (queue.length) {
    const v = queue.shift();
    if (v === to) break;
    for (const w of [...(graph.get(v) ?? [])].sort()) {
      if (members.has(w) && !previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  const pathBack = [];
  for (let v = to; v !== null; v = previous.get(v)) pathBack.push(v);
  return pathBack.reverse();
}

/**
 * Checks the tree at `root` (or the given `files`: relative path → source text). Returns the unit graph (`edges`:
 * Map 'a → b' → first example `{file, spec}`), the circles (`components`: arrays of units) and, per component,
 * `cycles`: lists of units [a, b, …, a] covering every arrow inside it.
 */
export function checkUnitCircles(root, files) {
  const sources = files ?? new Map(SCANNED.flatMap((dir) => sourceFiles(root, dir, { js: true })).map((rel) => [rel, null]));
  const known = new Set(sources.keys());
  const exists = (rel) => known.has(rel);
  const graph = new Map();
  const edges = new Map();
  for (const [rel, text] of [...sources].sort(([a], [b]) => a.localeCompare(b))) {
    if (isTestCode(rel)) continue;
    const from = unitOf(rel);
    if (!graph.has(from)) graph.set(from, new Set());
    for (const spec of runtimeImports(text ?? read(root, rel))) {
      const target = resolve(rel, spec, exists);
      if (!target || isTestCode(target)) continue;
      const to = unitOf(target);
      if (to === from) continue;
      graph.get(from).add(to);
      if (!edges.has(`${from} → ${to}`)) edges.set(`${from} → ${to}`, { file: rel, spec });
    }
  }
  const components = stronglyConnected(graph).filter((c) => c.length > 1);
  const cycles = components.map((component) => {
    const members = new Set(component);
    const found = new Map();
    for (const a of component) {
      for (const b of [...graph.get(a)].sort()) {
        if (!members.has(b)) continue;
        const cycle = [a, ...shortestPath(graph, members, b, a)];
        // the same cycle read from another starting unit is one cycle: key it by its rotation starting at the least unit
        const ring = cycle.slice(0, -1);
        const start = ring.indexOf([...ring].sort()[0]);
        const key = [...ring.slice(start), ...ring.slice(0, start)].join(' → ');
        if (!found.has(key)) found.set(key, cycle);
      }
    }
    return [...found.values()];
  });
  return { graph, edges, components, cycles, files: sources.size };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = path.resolve(import.meta.dirname, '..');
  const { graph, edges, components, cycles, files } = checkUnitCircles(root);
  const arrows = [...graph.values()].reduce((n, s) => n + s.size, 0);
  components.forEach((component, k) => {
    const members = new Set(component);
    console.error(`circle of ${component.length} units: ${component.join(', ')}`);
    console.error('  its arrows, one import each:');
    for (const [arrow, { file, spec }] of edges) if (arrow.split(' → ').every((u) => members.has(u))) console.error(`    ${arrow}  ${file}: ${spec}`);
    console.error('  cycles (one through each arrow):');
    for (const cycle of cycles[k]) console.error(`    ${cycle.join(' → ')}`);
  });
  const summary = `unit circles: ${graph.size} units, ${arrows} arrows from ${files} files; ${components.length} circle(s)`;
  if (components.length) {
    console.error(summary);
    process.exit(1);
  }
  console.log(summary);
}
