#!/usr/bin/env node
// One owner per table (issue 32): db/schema/ownership.ts names the unit that owns each table of db/schema, and only
// that unit inserts, updates or deletes its rows; another unit asks it through a function of its index. This check
// finds every write in the source and refuses one by a unit that is not the table's owner:
// - drizzle: `.insert(t)`, `.update(t)`, `.delete(t)` where `t` is a table of db/schema (its export name, as imported,
//   aliases and `schema.t` included);
// - raw SQL in strings and sql`…` templates: `insert into t`, `update t … set`, `delete from t`, with `t` written out
//   (optionally "quoted" or public.-qualified) or interpolated as `${t}`. `on conflict … do update` is the insert's.
// The writing unit is the file's, as scripts/check-imports.mjs names it (lib/platform/<u>, lib/domain/<m>,
// 'composition', 'app', 'components', 'scripts', 'db'); app/ and components/ own no table, so any write there is
// refused. Exempt: test files, `testing.ts` / `testing/` helpers and lib/testing (fixtures write what they need),
// db/migrations (SQL triggers are declared by the owner's migration) and bench/ (seeds). A table of db/schema with
// no owner, or an owner that is no table or no unit, is refused too. Exits 1 on any violation.
// Not seen, by construction: a write through a table passed as a value (contacts' merge updates each declared
// `contactReferences` table) and a library's own SQL (rate-limiter-flexible writes rate_limits).
import path from 'node:path';
import { blankComments, isTestCode, lineNumbers, listUnits, read, sourceFiles, unitOf } from './source-units.mjs';

/** The directories whose writes are checked; bench/ and db/migrations are exempt, e2e/ is test code. */
const SCANNED = ['lib', 'app', 'components', 'scripts', 'db', 'instrumentation.ts', 'proxy.ts'];

/** Every table of db/schema/*.ts: export name → SQL name (ownership.ts, index.ts and column helpers declare none). */
export function schemaTables(root) {
  const tables = new Map();
  for (const rel of sourceFiles(root, 'db/schema')) {
    if (isTestCode(rel)) continue;
    for (const m of blankComments(read(root, rel)).matchAll(/export\s+const\s+([\w$]+)\s*=\s*pgTable\s*\(\s*['"]([^'"]+)['"]/g)) tables.set(m[1], { sql: m[2], file: rel });
  }
  return tables;
}

/** db/schema/ownership.ts read as text: every `table: 'unit',` line of the `tableOwners` object. */
export function readOwners(root) {
  const text = blankComments(read(root, 'db/schema/ownership.ts'));
  const body = /tableOwners\s*=\s*\{([^}]*)\}/.exec(text);
  if (!body) throw new Error('db/schema/ownership.ts: no `export const tableOwners = { … }`');
  const owners = new Map();
  for (const m of body[1].matchAll(/['"]?([\w$]+)['"]?\s*:\s*['"]([^'"]+)['"]/g)) owners.set(m[1], m[2]);
  return owners;
}

/** The local names under which a file imports tables of db/schema: local name → export name, `ns.` for `* as ns`. */
function tableBindings(code, exportNames) {
  const bindings = new Map([...exportNames].map((name) => [name, name]));
  for (const m of code.matchAll(/import\s+(?!type\s)([^'";]*?)\s+from\s*['"]([^'"]+)['"]/g)) {
    if (!/(^|\/)db\/schema(\/[\w-]+)?$/.test(m[2])) continue;
    const ns = /\*\s+as\s+([\w$]+)/.exec(m[1]);
    if (ns) for (const name of exportNames) bindings.set(`${ns[1]}.${name}`, name);
    for (const spec of /\{([^}]*)\}/.exec(m[1])?.[1].split(',') ?? []) {
      const alias = /^\s*([\w$]+)\s+as\s+([\w$]+)\s*$/.exec(spec);
      if (alias && exportNames.has(alias[1])) bindings.set(alias[2], alias[1]);
    }
  }
  return bindings;
}

// A table in raw SQL: `${binding}` (group 1) or a name, optionally quoted and schema-qualified (group 2).
const NAME = String.raw`(?:\$\{\s*([\w$.]+)\s*\}|((?:"?\w+"?\s*\.\s*)?"?\w+"?))`;
// drizzle's `.insert(t)`, `.update(t)`, `.delete(t)`: 1 the verb, 2 the table's binding (`t` or `schema.t`)
const DRIZZLE = /\.\s*(insert|update|delete)\s*\(\s*([\w$]+(?:\s*\.\s*[\w$]+)?)\s*\)/g;
const SQL = [
  { verb: 'insert', re: new RegExp(String.raw`\binsert\s+into\s+${NAME}`, 'gi') },
  // `update t [as] [alias] set`; not `on conflict … do update set`, which belongs to its insert
  { verb: 'update', re: new RegExp(String.raw`(?<!\bdo\s+)\bupdate\s+(?:only\s+)?${NAME}(?:\s+(?:as\s+)?(?!set\b)\w+)?\s+set\b`, 'gi') },
  { verb: 'delete', re: new RegExp(String.raw`\bdelete\s+from\s+(?:only\s+)?${NAME}`, 'gi') },
];

/**
 * Checks the tree at `root`. Returns the tables and owners it read, the problems of the map itself (`mapProblems`:
 * a table without owner, an owner entry without table, an owner that is no unit), every write found (`writes`) and
 * the writes by a unit that does not own the table (`violations`), each `{file, line, unit, table, owner, verb}`.
 */
export function checkTableWrites(root) {
  const tables = schemaTables(root);
  const owners = readOwners(root);
  const units = listUnits(root);
  const sqlNames = new Map([...tables.values()].map((t) => [t.sql, t]));
  const mapProblems = [];
  for (const [name, t] of tables) if (!owners.has(t.sql)) mapProblems.push(`${t.file}: table ${t.sql} (${name}) has no owner in db/schema/ownership.ts`);
  for (const [table, owner] of owners) {
    if (!sqlNames.has(table)) mapProblems.push(`db/schema/ownership.ts: ${table} is no table of db/schema`);
    if (!units.has(owner)) mapProblems.push(`db/schema/ownership.ts: the owner '${owner}' of ${table} is no unit of lib/platform or lib/domain`);
  }

  const exportNames = new Set(tables.keys());
  const writes = [];
  let scanned = 0;
  const files = SCANNED.flatMap((dir) => sourceFiles(root, dir, { js: true })).filter((rel) => !isTestCode(rel) && !rel.startsWith('db/migrations/'));
  for (const rel of files) {
    scanned++;
    const text = read(root, rel);
    if (!/insert|update|delete/i.test(text)) continue;
    // SQL is read in the strings with comments blanked; drizzle calls in the code alone (strings blanked too)
    const code = blankComments(text);
    const codeOnly = blankComments(text, { strings: true });
    const bindings = tableBindings(code, exportNames);
    const lineOf = lineNumbers(code);
    const seen = new Set();
    const add = (verb, table, offset) => {
      const line = lineOf(offset);
      if (!table || seen.has(`${line}:${verb}:${table}`)) return;
      seen.add(`${line}:${verb}:${table}`);
      writes.push({ file: rel, line, unit: unitOf(rel), table, owner: owners.get(table) ?? '(none)', verb });
    };
    const bound = (binding) => tables.get(bindings.get(binding.replace(/\s+/g, '')))?.sql;
    for (const m of codeOnly.matchAll(DRIZZLE)) add(m[1], bound(m[2]), m.index + 1);
    for (const { verb, re } of SQL) {
      for (const m of code.matchAll(re)) {
        if (m[1]) add(verb, bound(m[1]), m.index);
        else {
          const parts = m[2].replace(/["\s]/g, '').toLowerCase().split('.');
          const [schema, name] = parts.length === 1 ? ['public', parts[0]] : parts;
          if (schema === 'public' && sqlNames.has(name)) add(verb, name, m.index);
        }
      }
    }
  }
  writes.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
  const violations = writes.filter((w) => w.unit !== w.owner);
  return { tables, owners, mapProblems, writes, violations, scanned };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = path.resolve(import.meta.dirname, '..');
  const { tables, mapProblems, writes, violations, scanned } = checkTableWrites(root);
  for (const problem of mapProblems) console.error(problem);
  for (const v of violations) console.error(`${v.file}:${v.line}: ${v.unit} writes ${v.table} (owned by ${v.owner})`);
  const files = new Set(violations.map((v) => v.file)).size;
  const summary = `tables: ${tables.size} tables, ${writes.length} writes in ${scanned} files; ${violations.length} by a unit that does not own the table (${files} files)${mapProblems.length ? `, ${mapProblems.length} problem(s) of the ownership map` : ''}`;
  if (violations.length || mapProblems.length) {
    console.error(summary);
    process.exit(1);
  }
  console.log(summary);
}
