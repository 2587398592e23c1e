#!/usr/bin/env node
// The layout's rules (docs/architecture.md, "Layout"), checked on every import of lib/:
// - a unit is a folder lib/platform/<name>/ or lib/domain/<name>/ with an index.ts, or a file lib/platform/<name>.ts;
//   from outside it, it is imported through its index only: '@/lib/domain/documents', never
//   '@/lib/domain/documents/finalize-document'. Tests and test helpers may also import '<unit>/testing'.
// - layers: lib/platform imports no domain module and nothing of lib/composition; lib/domain imports nothing of
//   lib/composition (the composition root imports the modules, never the reverse). Type-only imports are exempt
//   from the layer rule (they vanish at run time), not from the index rule.
// Import circles are checked apart, by dpdm (npm run check:circles). Exits 1 listing every violation.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const SCANNED = ['lib'];
const GROUPS = ['platform', 'domain'];

const units = new Set();
for (const group of GROUPS) {
  for (const name of readdirSync(path.join(root, 'lib', group))) {
    const full = path.join(root, 'lib', group, name);
    if (statSync(full).isDirectory() ? existsSync(path.join(full, 'index.ts')) : /\.tsx?$/.test(name)) units.add(`${group}/${name.replace(/\.tsx?$/, '')}`);
  }
}

function* sources(dir) {
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) yield* sources(full);
    else if (/\.(ts|tsx|mts)$/.test(entry)) yield full;
  }
}

/** The unit a file of lib/ belongs to ('domain/documents'), or its area ('composition', 'testing'). */
function unitOf(rel) {
  const parts = rel.split(path.sep);
  if (parts[0] !== 'lib') return parts[0];
  if (GROUPS.includes(parts[1])) return `${parts[1]}/${parts[2].replace(/\.tsx?$/, '')}`;
  return parts[1];
}

const specifier = /(?:^|[\s;])(import|export)(\s+type)?\s[^'"]*?from\s*['"]([^'"]+)['"]|(?:^|[\s;(=])import\s*\(\s*['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]/gm;
const violations = [];
let checked = 0;
for (const top of SCANNED) {
  for (const file of sources(path.join(root, top))) {
    checked++;
    const rel = path.relative(root, file);
    const own = unitOf(rel);
    const layer = own.split('/')[0];
    const isTest = /\.test\.tsx?$/.test(rel) || /(^|\/)testing(\.tsx?|\/)/.test(rel) || own === 'testing';
    for (const match of readFileSync(file, 'utf8').matchAll(specifier)) {
      const spec = match[3] ?? match[4] ?? match[5];
      const typeOnly = Boolean(match[2]);
      const target = /^@\/lib\/([^/]+)(?:\/([^/]+))?(?:\/(.+))?$/.exec(spec);
      if (!target) continue;
      const [, group, name, inner] = target;
      const targetUnit = GROUPS.includes(group) ? `${group}/${name}` : group;
      if (!typeOnly && !isTest) {
        if (layer === 'platform' && (group === 'domain' || group === 'composition')) violations.push(`${rel}: '${spec}' (platform code imports no domain module nor the composition)`);
        if (layer === 'domain' && group === 'composition') violations.push(`${rel}: '${spec}' (a domain module does not import the composition)`);
      }
      if (!GROUPS.includes(group) || !units.has(targetUnit) || targetUnit === own || !inner) continue;
      if (isTest && inner === 'testing') continue;
      violations.push(`${rel}: '${spec}' (import '@/lib/${targetUnit}' instead)`);
    }
  }
}

if (violations.length) {
  console.error(`${violations.length} import(s) break the layout:\n${violations.join('\n')}`);
  process.exit(1);
}
console.log(`imports: ${checked} files of ${SCANNED.join(', ')}; ${units.size} platform and domain units reached through their index only`);
