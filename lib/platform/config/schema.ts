import { z } from 'zod';

/**
 * The one schema of the environment the app reads (issue 34). Each entry is a README row (`npm run config:readme`
 * writes the table between its markers from this list; lib/platform/config/schema.test.ts fails when they differ) and
 * the zod fields of its variables. A field parses the raw string with the same rules, and the same message, as the
 * reader function of index.ts that callers use: the readers are thin views of these parsers, read at each call (tests
 * change the environment while running), and `parseConfig` reads them all once at start (lib/composition/config-check.ts).
 */

import type { Env } from './parsers';
import { configEntries, type Field, runtimeVariables } from './entries';

export * from './parsers';
export { configEntries, type ConfigEntry, runtimeVariables } from './entries';


const allFields: Record<string, Field> = Object.assign({}, runtimeVariables, ...configEntries.map((e) => e.fields));

/** Every variable of the schema. */
export const configVariables: readonly string[] = Object.keys(allFields);

/** The fix said for a variable's bad value. */
export const configFix = (name: string): string => allFields[name]?.fix ?? 'correct it';

/**
 * The zod schema of the whole environment: every variable optional as a string, checked by its field's parser (which
 * sees the whole environment: production requires what development derives).
 */
export const configSchema = z
  .object(Object.fromEntries(configVariables.map((name) => [name, z.string().optional()])) as Record<string, z.ZodOptional<z.ZodString>>)
  .superRefine((env, ctx) => {
    for (const [name, field] of Object.entries(allFields)) {
      try {
        field.parse?.(env[name], env);
      } catch (error) {
        ctx.addIssue({ code: 'custom', path: [name], message: error instanceof Error ? error.message : String(error) });
      }
    }
  });

export interface ConfigProblem {
  variable: string;
  message: string;
  fix: string;
}

/** What is wrong with the environment: one problem per bad variable, none when it is fine. */
export function configProblems(env: Env = process.env): ConfigProblem[] {
  const picked = Object.fromEntries(configVariables.map((name) => [name, env[name]]));
  const result = configSchema.safeParse(picked);
  if (result.success) return [];
  return result.error.issues.map((issue) => {
    const variable = String(issue.path[0] ?? '');
    const message = issue.message.startsWith(variable) ? issue.message : `${variable} ${issue.message}`;
    return { variable, message, fix: configFix(variable) };
  });
}

/** The one line said at start for a problem: the variable, what is wrong, the fix. */
export const formatConfigProblem = (p: ConfigProblem): string => `[paraphe] configuration error: ${p.message.replace(/\.$/, '')} — fix: ${p.fix}.`;

// ─── The README table ───────────────────────────────────────────────────────

export const README_TABLE_START = '<!-- config:start (npm run config:readme writes this table from lib/platform/config/schema.ts) -->';
export const README_TABLE_END = '<!-- config:end -->';

/** The README's configuration table, from the schema. */
export function configurationTable(): string {
  const rows = configEntries.map((entry) => {
    const label = entry.label ?? Object.keys(entry.fields).map((n) => `\`${n}\``).join(' / ');
    return `| ${label} | ${entry.default} | ${entry.effect} |`;
  });
  return ['| variable | default | effect |', '| --- | --- | --- |', ...rows].join('\n');
}

/** `readme` with the table between the markers replaced by the schema's. */
export function withConfigurationTable(readme: string): string {
  const start = readme.indexOf(README_TABLE_START);
  const end = readme.indexOf(README_TABLE_END);
  if (start < 0 || end < start) throw new Error(`README.md has no configuration table markers (${README_TABLE_START} … ${README_TABLE_END}).`);
  return `${readme.slice(0, start + README_TABLE_START.length)}\n${configurationTable()}\n${readme.slice(end)}`;
}
