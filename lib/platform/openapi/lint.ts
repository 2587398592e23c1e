import { createConfig, lintFromString } from '@redocly/openapi-core';
import { createRulesetFunction, Document, type IFunctionResult, type RulesetDefinition, Spectral } from '@stoplight/spectral-core';
import Parsers from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';

/*
 * The two linters integrators run on an OpenAPI document, with their standard rulesets: Spectral `spectral:oas` and
 * Redocly `recommended`. lib/platform/openapi/lint.test.ts fails on any finding (docs/api-reference.md, "Linters"). Tests only:
 * the linters are dev dependencies.
 */

export interface LintFinding {
  linter: 'spectral' | 'redocly';
  rule: string;
  /** A JSON pointer into the document. */
  where: string;
  message: string;
}

/** A finding we keep on purpose: one rule at one place, with why an integrator would accept it. */
interface Exception {
  linter: LintFinding['linter'];
  rule: string;
  where: string;
  reason: string;
}

export const LINT_EXCEPTIONS: readonly Exception[] = [
  {
    linter: 'redocly',
    rule: 'no-ambiguous-paths',
    where: '#/paths/~1v1~1invoices~1inbound~1{id}',
    reason:
      'Both paths are the spec’s (/v1/invoices/{id}/finalize, /v1/invoices/inbound/{id}). They cannot collide: an id is a UUID, never ' +
      '`inbound`, and the router tries literal segments before ids (lib/platform/openapi/errors.ts operationServing).',
  },
];

const pointer = (path: ReadonlyArray<string | number>) => `#/${path.map((p) => String(p).replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`;

type SecurityScheme = { flows?: Record<string, { scopes?: Record<string, string> }>; 'x-scopes'?: Record<string, string> };

/**
 * OpenAPI 3.1 lets a security requirement of any scheme list the roles it needs (§4.8.30.1: "for other security scheme
 * types, the array MAY contain a list of role names"); Spectral's oas3-operation-security-defined still applies the 3.0
 * rule and takes each role of our bearer scheme for an undefined OAuth scope (stoplightio/spectral#2643, open). This
 * replaces it with the same checks, 3.1-aware: every scheme named is defined, and every role is declared — an OAuth
 * scope in one of its flows, a scope of ours in the scheme's `x-scopes` (lib/platform/auth/scopes) — so that a misspelt scope
 * still fails.
 */
const rolesDeclared = createRulesetFunction<Record<string, string[]>, null>(
  { input: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } }, options: null },
  (requirement, _options, { document, path }) => {
    const schemes = ((document.data as { components?: { securitySchemes?: Record<string, SecurityScheme> } }).components?.securitySchemes ?? {}) as Record<string, SecurityScheme>;
    const results: IFunctionResult[] = [];
    for (const [name, roles] of Object.entries(requirement)) {
      const scheme = schemes[name];
      if (!scheme) {
        results.push({ message: `"${name}" is not a scheme of components.securitySchemes.`, path: [...path, name] });
        continue;
      }
      const declared = new Set([...Object.values(scheme.flows ?? {}).flatMap((flow) => Object.keys(flow.scopes ?? {})), ...Object.keys(scheme['x-scopes'] ?? {})]);
      roles.forEach((role, i) => {
        if (!declared.has(role)) results.push({ message: `"${role}" is declared by no flow nor x-scopes of "${name}".`, path: [...path, name, i] });
      });
    }
    return results;
  },
);

const SPECTRAL_RULESET = {
  extends: [[oas as RulesetDefinition, 'recommended']],
  rules: {
    // Replaced by paraphe-security-roles-declared (above): a false positive on every 3.1 operation that names its scope.
    'oas3-operation-security-defined': 'off',
    'paraphe-security-roles-declared': {
      description: 'Security requirements name defined schemes, and roles those schemes declare (OpenAPI 3.1).',
      severity: 'warn',
      given: ['$.security[*]', '$.paths[*][get,put,post,delete,options,head,patch,trace].security[*]', '$.webhooks[*][get,put,post,delete,options,head,patch,trace].security[*]'],
      // biome-ignore lint/suspicious/noThenProperty: a Spectral rule names what it runs `then`.
      then: { function: rolesDeclared },
    },
  },
} as RulesetDefinition;

export async function spectralFindings(text: string): Promise<LintFinding[]> {
  const spectral = new Spectral();
  spectral.setRuleset(SPECTRAL_RULESET);
  const results = await spectral.run(new Document(text, Parsers.Json, 'openapi.json'));
  return results.map((r) => ({ linter: 'spectral', rule: String(r.code), where: pointer(r.path), message: r.message }));
}

async function redoclyFindings(text: string): Promise<LintFinding[]> {
  const config = await createConfig({ extends: ['recommended'] });
  const problems = await lintFromString({ source: text, absoluteRef: 'openapi.json', config });
  return problems.map((p) => ({ linter: 'redocly', rule: p.ruleId, where: p.location[0]?.pointer ?? '#/', message: p.message }));
}

/** Every finding of both linters on `document`, errors and warnings alike. */
export async function lintFindings(document: unknown): Promise<LintFinding[]> {
  const text = JSON.stringify(document, null, 2);
  return [...(await spectralFindings(text)), ...(await redoclyFindings(text))];
}

export const isException = (f: LintFinding) => LINT_EXCEPTIONS.some((e) => e.linter === f.linter && e.rule === f.rule && e.where === f.where);
