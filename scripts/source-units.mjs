// What scripts/check-table-writes.mjs and scripts/check-unit-circles.mjs share: the walk of the source tree, the unit
// a file belongs to (as scripts/check-imports.mjs names it), which files are test code, and a scanner that blanks
// comments so that a commented-out `tx.update(documents)` or an `import` in a doc comment is not read as code.
// Plain text and regular expressions, no TypeScript parser: the whole tree (≈ 4 MB) is read in well under a second,
// where parsing it with the compiler takes several.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export const GROUPS = ['platform', 'domain'];

/** Every .ts/.tsx/.mts/.mjs file under `dir` (relative to `root`, '/'-separated), sorted; node_modules skipped. */
export function sourceFiles(root, dir, { js = false } = {}) {
  const out = [];
  const pattern = js ? /\.(ts|tsx|mts|mjs)$/ : /\.(ts|tsx|mts)$/;
  const walk = (rel) => {
    const full = path.join(root, rel);
    if (!existsSync(full)) return;
    if (!statSync(full).isDirectory()) {
      if (pattern.test(rel) && !rel.endsWith('.d.ts')) out.push(rel);
      return;
    }
    for (const entry of readdirSync(full).sort()) if (entry !== 'node_modules' && !entry.startsWith('.')) walk(rel ? `${rel}/${entry}` : entry);
  };
  walk(dir);
  return out;
}

/**
 * The unit a file belongs to: 'platform/http', 'domain/pdf' (lib/platform/<u>/… or lib/platform/<u>.ts, likewise
 * lib/domain), the area of the rest of lib/ ('composition', 'testing'), else its top folder ('app', 'components',
 * 'db', 'scripts', 'bench'). The Next.js entry files at the root (instrumentation.ts, proxy.ts) count as 'app'.
 */
export function unitOf(rel) {
  const parts = rel.split('/');
  if (parts.length === 1) return 'app';
  if (parts[0] !== 'lib') return parts[0];
  if (GROUPS.includes(parts[1]) && parts.length > 2) return `${parts[1]}/${parts[2].replace(/\.(tsx?|mts)$/, '')}`;
  return parts[1];
}

/** Test code: `*.test.ts(x)`, a unit's `testing.ts` or `testing/` helpers, lib/testing. */
export function isTestCode(rel) {
  return /\.test\.tsx?$/.test(rel) || /(^|\/)testing(\.tsx?|\/)/.test(rel) || rel.startsWith('lib/testing/');
}

/** The platform and domain units present under `root` (a folder of lib/platform or lib/domain, or a file of it). */
export function listUnits(root) {
  const units = new Set();
  for (const group of GROUPS) {
    const dir = path.join(root, 'lib', group);
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir)) {
      if (statSync(path.join(dir, name)).isDirectory()) units.add(`${group}/${name}`);
      else if (/\.(tsx?|mts)$/.test(name) && !name.endsWith('.d.ts')) units.add(`${group}/${name.replace(/\.(tsx?|mts)$/, '')}`);
    }
  }
  return units;
}

export const read = (root, rel) => readFileSync(path.join(root, rel), 'utf8');

/**
 * `text` with every comment replaced by spaces (newlines kept, so offsets and line numbers stay); strings and
 * template literals are kept, or with `{ strings: true }` blanked too, quotes and `${…}` code excepted (what is
 * left is code only: an `import "x"` quoted in an error message is no import). Regular-expression literals are
 * skipped when a `/` follows an operator or an opening bracket; quoted strings end at a line end at the latest, so JSX text such as `l'adresse` cannot swallow
 * more than its line.
 */
export function blankComments(text, { strings = false } = {}) {
  const out = text.split('');
  const n = text.length;
  const blank = (from, to) => {
    for (let k = from; k < to; k++) if (out[k] !== '\n') out[k] = ' ';
  };
  // Brace depth of each `${` we are inside, innermost last: a `}` at depth 0 goes back into the template.
  const templates = [];
  let depth = 0;
  let prev = ''; // last significant character of code, to tell a regex literal from a division
  let i = 0;
  const skipTemplate = () => {
    // i is just past a backtick or a template's closing `}`; returns with i past the closing backtick, or in a `${`.
    while (i < n) {
      const c = text[i];
      if (strings && c !== '`' && !(c === '$' && text[i + 1] === '{')) blank(i, Math.min(i + (c === '\\' ? 2 : 1), n));
      if (c === '\\') i += 2;
      else if (c === '`') {
        i++;
        prev = '`';
        return;
      } else if (c === '$' && text[i + 1] === '{') {
        i += 2;
        templates.push(depth);
        depth = 0;
        prev = '{';
        return;
      } else i++;
    }
  };
  while (i < n) {
    const c = text[i];
    const d = text[i + 1];
    if (c === '/' && d === '/') {
      const end = text.indexOf('\n', i);
      blank(i, end === -1 ? n : end);
      i = end === -1 ? n : end;
    } else if (c === '/' && d === '*') {
      const end = text.indexOf('*/', i + 2);
      blank(i, end === -1 ? n : end + 2);
      i = end === -1 ? n : end + 2;
    } else if (c === "'" || c === '"') {
      const start = ++i;
      while (i < n && text[i] !== c && text[i] !== '\n') i += text[i] === '\\' ? 2 : 1;
      if (strings) blank(start, Math.min(i, n));
      i++;
      prev = c;
    } else if (c === '`') {
      i++;
      skipTemplate();
    } else if (c === '/' && (prev === '' || '(,=:[!&|?{;+-*%~^'.includes(prev) || /\b(return|typeof|case|in|of|yield|await)$/.test(text.slice(Math.max(0, i - 8), i).trimEnd()))) {
      // a regular-expression literal: to its closing `/` outside a character class, on this line
      i++;
      let inClass = false;
      while (i < n && text[i] !== '\n' && (inClass || text[i] !== '/')) {
        if (text[i] === '\\') i++;
        else if (text[i] === '[') inClass = true;
        else if (text[i] === ']') inClass = false;
        i++;
      }
      i++;
      prev = '/';
    } else {
      if (c === '{') depth++;
      else if (c === '}') {
        if (depth === 0 && templates.length) {
          depth = templates.pop();
          i++;
          skipTemplate();
          continue;
        }
        depth--;
      }
      if (!/\s/.test(c)) prev = c === '>' && text[i - 1] === '=' ? '=' : c;
      i++;
    }
  }
  return out.join('');
}

/** A function from an offset of `text` to its 1-based line number. */
export function lineNumbers(text) {
  const starts = [0];
  for (let k = 0; k < text.length; k++) if (text[k] === '\n') starts.push(k + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
}
