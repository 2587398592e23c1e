#!/usr/bin/env node
// A module (a folder lib/<name>/ with an index.ts) is imported by the rest of lib/ through its index only:
// '@/lib/<name>', never '@/lib/<name>/<file>'. Tests and test helpers may also import '@/lib/<name>/testing'.
// Import circles are checked apart, by dpdm (npm run check:circles). Exits 1 listing every deep import.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const lib = path.join(root, 'lib');
const modules = new Set(readdirSync(lib).filter((name) => existsSync(path.join(lib, name, 'index.ts'))));

function* sources(dir) {
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) yield* sources(full);
    else if (/\.(ts|tsx|mts)$/.test(entry)) yield full;
  }
}

const specifier = /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|(?:^|[\s;])import\s*\(?\s*['"]([^'"]+)['"]/gm;
const violations = [];
for (const file of sources(lib)) {
  const rel = path.relative(root, file);
  const owner = rel.split(path.sep)[1];
  const isTest = /\.test\.tsx?$/.test(rel) || /(^|\/)testing(\.tsx?|\/)/.test(rel);
  for (const match of readFileSync(file, 'utf8').matchAll(specifier)) {
    const spec = match[1] ?? match[2];
    const deep = /^@\/lib\/([^/]+)\/(.+)$/.exec(spec);
    if (!deep) continue;
    const [, target, inner] = deep;
    if (target === owner || !modules.has(target)) continue;
    if (isTest && inner === 'testing') continue;
    violations.push(`${rel}: '${spec}' (import '@/lib/${target}' instead)`);
  }
}

if (violations.length) {
  console.error(`${violations.length} deep import(s) into a module, past its index:\n${violations.join('\n')}`);
  process.exit(1);
}
console.log(`imports: ${modules.size} modules, reached through their index only`);
