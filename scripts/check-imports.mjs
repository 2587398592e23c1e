#!/usr/bin/env node
// The layout's rules (docs/architecture.md, "Layout"), checked on every import of lib/, app/ and components/:
// - a unit is a folder lib/platform/<name>/ or lib/domain/<name>/ with an index.ts, or a file lib/platform/<name>.ts;
//   from outside it, it is imported through its index only: '@/lib/domain/documents', never
//   '@/lib/domain/documents/finalize-document'. Two other surfaces are public:
//   - '<unit>/client', the client-safe part of a unit that has one (pure functions, constants, types and zod schemas
//     that reach neither the database nor Node.js), from anywhere;
//   - its test helpers ('<unit>/testing', '<unit>/testing/…', '<unit>/…/testing'), from tests and test helpers only.
// - a client component (a file whose first statement is 'use client') takes '<unit>/client', not the index, of a unit
//   that has a client.ts: the index re-exports server code, which would be bundled into the browser. Type-only
//   imports are exempt (they vanish at build time). And what the browser bundles holds no server code: no file a
//   client component or a client.ts reaches through value imports (relative, '@/app/…', '@/components/…', '@/lib/…',
//   '@/db/…'; a 'use server' file is a boundary) imports Node.js built-ins, the database client or drivers, drizzle,
//   pg-boss, argon2, the rate limiter, next-auth's server side or the composition.
// - layers: lib/platform imports no domain module and nothing of lib/composition; lib/domain imports nothing of
//   lib/composition (the composition root imports the modules, never the reverse). Type-only imports are exempt
//   from the layer rule (they vanish at run time), not from the index rule.
// - the framework: in lib/, only the Next.js adapter (lib/platform/next) imports next, next/* or next-auth, and the
//   adapter itself is imported by app/, components/, lib/composition and tests only, never by a platform library or a
//   domain module. Test code is exempt.
// The root entry files (proxy.ts, instrumentation.ts), scripts/ and bench/ are not scanned. Import circles are checked
// apart, by dpdm (npm run check:circles). Exits 1 listing every violation.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { GROUPS, isTestCode, sourceFiles, unitOf } from './source-units.mjs';

const root = path.resolve(import.meta.dirname, '..');
const SCANNED = ['lib', 'app', 'components'];
const ADAPTER = 'platform/next';

const units = new Set();
const withClient = new Set();
for (const group of GROUPS) {
  for (const name of readdirSync(path.join(root, 'lib', group))) {
    const full = path.join(root, 'lib', group, name);
    const unit = `${group}/${name.replace(/\.tsx?$/, '')}`;
    if (statSync(full).isDirectory() ? existsSync(path.join(full, 'index.ts')) : /\.tsx?$/.test(name)) units.add(unit);
    if (statSync(full).isDirectory() && existsSync(path.join(full, 'client.ts'))) withClient.add(unit);
  }
}

/** The files of `top` (lib, app, components) as absolute paths: the walk the other layout checks use. */
const sources = (top) => sourceFiles(root, top).map((rel) => path.join(root, rel));

const specifier = /(?:^|[\s;])(import|export)(\s+type)?\s([^'"]*?)from\s*['"]([^'"]+)['"]|(?:^|[\s;(=])import\s*\(\s*['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]/gm;
/** `import { type A, type B } from …`: every name a type, so the import vanishes like `import type`. */
const allTypes = (clause) => /^\{[^}]*\}$/.test(clause.trim()) && clause.trim().slice(1, -1).split(',').map((s) => s.trim()).filter(Boolean).every((s) => s.startsWith('type '));
const useClient = /^(?:\s|\/\/[^\n]*\n|\/\*[\s\S]*?\*\/)*['"]use client['"]/;
const framework = /^(next|next-auth)(\/|$)/;

/** The file an '@/…' or relative specifier names, or null (a package). */
function resolve(from, spec) {
  let base;
  if (spec.startsWith('@/')) base = path.join(root, spec.slice(2));
  else if (spec.startsWith('.')) base = path.resolve(path.dirname(from), spec);
  else return null;
  for (const c of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')]) if (existsSync(c) && statSync(c).isFile() && /\.tsx?$/.test(c)) return c;
  return null;
}

const SERVER_PACKAGES = /^(node:|pg$|pg\/|pg-boss|drizzle-orm|@electric-sql\/pglite|@node-rs\/argon2|rate-limiter-flexible|proper-lockfile|next-auth(?!\/react)|server-only|fs$|path$|crypto$|child_process$|worker_threads$)/;
const texts = new Map();
const textOf = (file) => {
  if (!texts.has(file)) texts.set(file, readFileSync(file, 'utf8'));
  return texts.get(file);
};
/** The value imports of a file: [specifier, type-only]. */
const importsOf = (file) => [...textOf(file).matchAll(specifier)].map((m) => [m[4] ?? m[5] ?? m[6], Boolean(m[2]) || (m[3] !== undefined && allTypes(m[3]))]);

/** Every file the browser bundles: the client components and the units' client.ts, and what they reach. */
const bundled = new Map(); // file -> the client root it was first reached from
const parent = new Map(); // file -> the file that first imported it
{
  const roots = [];
  for (const top of ['app', 'components']) for (const file of sources(top)) if (useClient.test(textOf(file))) roots.push(file);
  for (const unit of withClient) roots.push(path.join(root, 'lib', unit, 'client.ts'));
  for (const start of roots) {
    const stack = [start];
    while (stack.length) {
      const file = stack.pop();
      if (bundled.has(file)) continue;
      if (file !== start && /^(?:\s|\/\/[^\n]*\n|\/\*[\s\S]*?\*\/)*['"]use server['"]/.test(textOf(file))) continue;
      bundled.set(file, start);
      for (const [spec, typeOnly] of importsOf(file)) {
        if (typeOnly) continue;
        const next = resolve(file, spec);
        if (next && !/\.test\.tsx?$/.test(next)) {
          if (!parent.has(next)) parent.set(next, file);
          stack.push(next);
        }
      }
    }
  }
}

const violations = [];
let checked = 0;
const serverHits = new Map(); // client root -> its server imports, in the order the walk met them
for (const [file, start] of bundled) {
  const rel = path.relative(root, file);
  const chain = [];
  for (let at = file; at !== start && parent.has(at) && chain.length < 12; at = parent.get(at)) chain.unshift(path.relative(root, parent.get(at)));
  const via = file === start ? '' : `, reached from ${chain.join(' > ')}`;
  for (const [spec, typeOnly] of importsOf(file)) {
    if (typeOnly) continue;
    if (!SERVER_PACKAGES.test(spec) && spec !== '@/db/client' && !spec.startsWith('@/lib/composition')) continue;
    if (!serverHits.has(start)) serverHits.set(start, []);
    serverHits.get(start).push(`${rel}: '${spec}' (server code in the browser bundle${via})`);
  }
}
// One line per client root, the first server import its walk met (the chain says how); fixing it usually removes the rest.
for (const hits of serverHits.values()) violations.push(hits.length > 1 ? `${hits[0]}, and ${hits.length - 1} more server import(s) behind it` : hits[0]);

for (const top of SCANNED) {
  for (const file of sources(top)) {
    checked++;
    const rel = path.relative(root, file);
    const own = unitOf(rel);
    const layer = own.split('/')[0];
    const isTest = isTestCode(rel);
    const text = textOf(file);
    const client = useClient.test(text);
    for (const match of text.matchAll(specifier)) {
      const spec = match[4] ?? match[5] ?? match[6];
      const typeOnly = Boolean(match[2]) || (match[3] !== undefined && allTypes(match[3]));
      if (top === 'lib' && !isTest && own !== ADAPTER && framework.test(spec)) {
        violations.push(`${rel}: '${spec}' (only the Next.js adapter, lib/platform/next, imports the framework)`);
        continue;
      }
      const target = /^@\/lib\/([^/]+)(?:\/([^/]+))?(?:\/(.+))?$/.exec(spec);
      if (!target) continue;
      const [, group, name, inner] = target;
      const targetUnit = GROUPS.includes(group) ? `${group}/${name}` : group;
      if (!typeOnly && !isTest) {
        if (layer === 'platform' && (group === 'domain' || group === 'composition')) violations.push(`${rel}: '${spec}' (platform code imports no domain module nor the composition)`);
        if (layer === 'domain' && group === 'composition') violations.push(`${rel}: '${spec}' (a domain module does not import the composition)`);
        if ((layer === 'platform' || layer === 'domain') && own !== ADAPTER && targetUnit === ADAPTER) violations.push(`${rel}: '${spec}' (the Next.js adapter serves app/ and components/, not the platform nor the domain)`);
      }
      if (!GROUPS.includes(group) || !units.has(targetUnit) || targetUnit === own) continue;
      if (!inner) {
        if (client && !typeOnly && withClient.has(targetUnit)) violations.push(`${rel}: '${spec}' (a client component imports '@/lib/${targetUnit}/client')`);
        continue;
      }
      if (inner === 'client' && withClient.has(targetUnit)) continue;
      const helper = inner.split('/').includes('testing');
      if (helper && isTest) continue;
      violations.push(`${rel}: '${spec}' (${helper ? 'test helpers are for tests; ' : ''}import '@/lib/${targetUnit}'${withClient.has(targetUnit) ? ` or '@/lib/${targetUnit}/client'` : ''} instead)`);
    }
  }
}

if (violations.length) {
  console.error(`${violations.length} import(s) break the layout:\n${violations.join('\n')}`);
  process.exit(1);
}
console.log(
  `imports: ${checked} files of ${SCANNED.join(', ')}; ${units.size} platform and domain units reached through their index only (${withClient.size} with a client surface, taken by every client component)`,
);
