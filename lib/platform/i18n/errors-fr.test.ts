/// <reference types="vite/client" />
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { SCOPES } from '@/lib/platform/auth';
import { conflict, fromZodError, validationError } from '@/lib/platform/errors';
import { refusalMessage, refusalOf } from '@/lib/platform/next';
import { ENV_LABELS, SCOPE_LABELS } from './api-keys-fr';
import { CODE_MESSAGES, frenchReason, hasFrenchCode } from './errors-fr';
import { hasFrenchLabel } from './fields-fr';
import { frenchText } from './texts-fr';

/*
 * The guard of the catalogue: no error reaches a back-office page without its French. Every error code thrown in
 * lib/ and app/, every English field message written there, every field of the input schemas must have its entry.
 */

const root = path.resolve(import.meta.dirname, '../../..');

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) yield* sources(full);
    else if (/\.tsx?$/.test(entry) && !/\.test\.tsx?$/.test(entry) && !/(^|\/)testing(\.tsx?|\/)/.test(full)) yield full;
  }
}

const files = [...sources(path.join(root, 'lib')), ...sources(path.join(root, 'app')), ...sources(path.join(root, 'components'))].map((file) => ({
  file: path.relative(root, file),
  src: readFileSync(file, 'utf8'),
}));

const LITERAL = String.raw`('(?:[^'\\\n]|\\.)*'|\x60(?:[^\x60\\]|\\.)*\x60|"(?:[^"\\\n]|\\.)*")`;
const unquote = (literal: string) => literal.slice(1, -1);

/** The codes of the API's errors, as written in the source: `new ApiError(status, 'code'`, `conflict('code'`, `{ code: 'code'`. */
function thrownCodes(): Map<string, string> {
  const found = new Map<string, string>();
  const patterns = [/new ApiError\(\s*[^,]+,\s*'([a-z_]+)'/g, /\bconflict\(\s*'([a-z_]+)'/g, /\bcode: '([a-z_]+)'/g];
  for (const { file, src } of files) {
    for (const pattern of patterns) for (const m of src.matchAll(pattern)) found.set(m[1]!, file);
    // The state machine's refusals: `refuse('code', message)` where refuse takes a code (allowed-actions.ts).
    if (/const refuse = \(code: string/.test(src)) for (const m of src.matchAll(/\brefuse\(\s*'([a-z_]+)'/g)) found.set(m[1]!, file);
  }
  found.delete('custom'); // zod's addIssue, not an error code
  return found;
}

/** Where a code is not a literal: each site must only relay codes written as literals elsewhere. */
// The received invoices' actions relay pa_unavailable / pa_refused (lib/domain/einvoicing paFailure, written as literals there).
const RELAYED_CODES = new Set([
  'lib/platform/errors.ts',
  'lib/domain/documents/transitions.ts',
  'lib/domain/reminders/reminders.ts',
  'lib/domain/sending/send-document.ts',
  'app/(backoffice)/invoices/received/actions.ts',
  // The upload's answer from its worker: invalid_pdf, pdf_encrypted, pdf_too_complex, invalid_text_tag (upload-inspection.ts).
  'lib/domain/signature/documents.ts',
  // sandboxRefusalError: the code its caller names (pdf_too_complex, validation_error).
  'lib/platform/sandbox/sandbox.ts',
]);

/** Codes only ever relayed (above), never written where the scan reads them. */
const RELAYED_ONLY_CODES = ['pdf_too_complex', 'busy'];

/** The codes DESIGN.md §3 lists, some thrown by modules still to come: they are worded before they arrive. */
const DESIGN_CODES = [
  'invalid_json', 'unauthorized', 'forbidden', 'no_active_org', 'not_found', 'not_cancellable', 'not_convertible', 'not_finalized',
  'already_finalized', 'document_finalized', 'credit_note_exists', 'envelope_not_draft', 'signature_conflict', 'not_payable',
  'payments_account_required', 'payments_account_not_ready', 'pdf_not_ready', 'batch_too_large', 'validation_error', 'no_recipient',
  'invalid_cursor', 'rate_limited', 'payments_disabled', 'idempotency_key_reused', 'invalid_code', 'internal_error',
];

/** Every English message a schema or a service writes for a field (its `field: ` prefix dropped, `${…}` as 1). */
function fieldMessages(): Map<string, string> {
  const found = new Map<string, string>();
  const patterns = [
    new RegExp(String.raw`validationError\(\s*[^,]+,\s*${LITERAL}`, 'g'),
    new RegExp(String.raw`\berror:\s*(?:[\w.]+\s*\?\s*${LITERAL}\s*:\s*)?${LITERAL}`, 'g'),
    new RegExp(String.raw`\.(?:refine|min|max|regex|length|superRefine)\((?:[^()]|\([^()]*\))*?,\s*${LITERAL}\s*\)`, 'g'),
    new RegExp(String.raw`addIssue\(\{[^}]*message:\s*${LITERAL}`, 'g'),
    // Messages handed to a schema helper (contacts' code() and choice()).
    new RegExp(String.raw`${LITERAL}`, 'g'),
  ];
  const english = /^(?:must |at most |at least |malformed |required|contains |listed twice|unknown field|no such |give at least |cannot |this contact )/;
  for (const { file, src } of files) {
    // A message held in a constant (`error: NO_NAME_MESSAGE`): its literal is scanned as well.
    const named = new Set([...src.matchAll(/\b(?:error|message):\s*([A-Z][A-Z_]+)\b/g)].map((m) => m[1]!));
    for (const name of named) {
      const constant = new RegExp(String.raw`const ${name}\s*=\s*${LITERAL}`).exec(src);
      if (constant) found.set(unquote(constant[1]!), file);
    }
    patterns.forEach((pattern, i) => {
      for (const m of src.matchAll(pattern)) {
        for (const literal of m.slice(1).filter(Boolean)) {
          const text = unquote(literal!)
            .replace(/\$\{(?:[^{}]|\{[^{}]*\})*\}/g, '1')
            .replace(/^(?:[\w.'()]+: )+/, '');
          if (i === patterns.length - 1 && !english.test(text)) continue;
          // Wholly relayed, not a sentence (a path, a key), or already French.
          if (text === '1' || text.includes('${') || !/^[\w"].* /.test(text) || /[éèàçù]/.test(text)) continue;
          found.set(text, file);
        }
      }
    });
  }
  return found;
}

type Walkable = z.ZodType & { _zod: { def: Record<string, unknown> & { type: string } } };

/** The keys of an input schema, nested objects and lists included. */
function keysOf(schema: Walkable, out = new Set<string>(), seen = new Set<unknown>()): Set<string> {
  if (!schema?._zod || seen.has(schema)) return out;
  seen.add(schema);
  const def = schema._zod.def;
  const walk = (s: unknown) => keysOf(s as Walkable, out, seen);
  if (def.type === 'object') {
    for (const [key, value] of Object.entries(def.shape as Record<string, unknown>)) {
      out.add(key);
      walk(value);
    }
  }
  for (const inner of ['innerType', 'in', 'out', 'element', 'left', 'right', 'valueType']) if (def[inner]) walk(def[inner]);
  if (Array.isArray(def.options)) def.options.forEach(walk);
  return out;
}

/**
 * Every module of schemas (lib/<module>/schemas.ts, *-schema.ts, the API keys' input; not the OpenAPI's shared bodies): their `…Create`, `…Input`,
 * `…Patch`, `…Body`, `…Query` are what the API and the back-office's actions read.
 */
const schemaModules = import.meta.glob<Record<string, unknown>>([
  '../../domain/*/schemas.ts',
  '../../domain/*/*-schema.ts',
  '../*/schemas.ts',
  '../auth/api-keys.ts',
  '!../contract/**',
  '!../openapi/**',
]);
const loadSchemas = async (name: string) => {
  const load = schemaModules[`../../domain/${name}.ts`];
  if (!load) throw new Error(`no schema module ${name}`);
  return load();
};

describe('the French catalogue covers every error', () => {
  it('has the French of every error code thrown in lib/ and app/, and of every code DESIGN lists', () => {
    const codes = thrownCodes();
    expect(codes.size).toBeGreaterThan(20);
    const missing = [...codes].filter(([code]) => !hasFrenchCode(code)).map(([code, file]) => `${code} (${file})`);
    expect(missing, 'add these codes to CODE_MESSAGES in lib/platform/i18n/errors-fr.ts').toEqual([]);
    expect(DESIGN_CODES.filter((code) => !hasFrenchCode(code))).toEqual([]);
    expect(RELAYED_ONLY_CODES.filter((code) => !hasFrenchCode(code))).toEqual([]);
  });

  it('knows every place where a code is relayed rather than written', () => {
    const dynamic = files
      .filter(({ src }) => /new ApiError\(\s*[^,]+,\s*[a-zA-Z_.]+\s*,|\bconflict\(\s*[a-zA-Z_.]+\s*,/.test(src))
      .map(({ file }) => file)
      .filter((file) => !RELAYED_CODES.has(file));
    expect(dynamic, 'a code passed as a variable escapes the scan: write it as a literal, or list the site and check its codes').toEqual([]);
  });

  it('has the French of every English field message written in lib/ and app/', () => {
    const messages = fieldMessages();
    expect(messages.size).toBeGreaterThan(60);
    const missing = [...messages].filter(([text]) => frenchText(text) === null).map(([text, file]) => `${text} (${file})`);
    expect(missing, 'add a pattern for these messages to TEXT_PATTERNS in lib/platform/i18n/texts-fr.ts').toEqual([]);
  });

  it('names every field of the input schemas in French', async () => {
    const keys = new Set<string>();
    const modules = await Promise.all(Object.values(schemaModules).map((load) => load()));
    expect(modules.length).toBeGreaterThan(8);
    for (const mod of modules) {
      for (const [exported, value] of Object.entries(mod)) {
        if (/(?:Create|Update|Input|Patch|Body|Query)$/.test(exported) && (value as Walkable)?._zod) keysOf(value as Walkable, keys);
      }
    }
    expect(keys.size).toBeGreaterThan(40);
    expect([...keys].filter((key) => !hasFrenchLabel(key)), 'add these fields to FIELD_LABELS in lib/platform/i18n/fields-fr.ts').toEqual([]);
  });

  it('words every API key scope and environment', () => {
    expect(SCOPES.filter((scope) => !SCOPE_LABELS[scope])).toEqual([]);
    expect(Object.keys(ENV_LABELS).sort()).toEqual(['live', 'test']);
    expect(Object.values(CODE_MESSAGES).every((text) => /^\p{Lu}.*[.!]$/u.test(text))).toBe(true);
  });
});

const { ContactCreate, parseImportRow } = (await loadSchemas('contacts/schemas')) as {
  ContactCreate: z.ZodType;
  parseImportRow: (row: unknown) => { payload: unknown } | { reason: string };
};
const { DepositBody, DocumentCreate } = (await loadSchemas('documents/schemas')) as {
  DepositBody: z.ZodType;
  DocumentCreate: z.ZodType;
};

describe('real refusals reach the form in French through the action wrapper', () => {
  const refusalOfParse = (schema: z.ZodType, input: unknown) => {
    const parsed = schema.safeParse(input);
    expect(parsed.success).toBe(false);
    return refusalOf(parsed.error)!;
  };

  it('a contact with a malformed e-mail and an unknown country', () => {
    const refusal = refusalOfParse(ContactCreate, { type: 'professionnel', company: 'Atelier', email: 'nope', country: 'XX' });
    expect(refusal.errors).toEqual({ email: 'Adresse e-mail invalide (ex. nom@exemple.fr).', country: 'Choisissez un pays de la liste.' });
    expect(refusalMessage(refusal)).toBe('E-mail : adresse e-mail invalide (ex. nom@exemple.fr).');
  });

  it('a document without a client', () => {
    const refusal = refusalOfParse(DocumentCreate, { type: 'facture', items: [] });
    expect(refusal.errors?.contact_id).toBe('Choisissez un client existant.');
    // The API's 422 keeps its English.
    const api = validationError('contact_id', 'contact_id: must be a contact id');
    expect(api.toBody()).toMatchObject({ message: 'contact_id: must be a contact id' });
    expect(refusalOf(api)).toEqual({ refused: true, error: 'Client : choisissez un client existant.', errors: { contact_id: 'Choisissez un client existant.' } });
  });

  it('a deposit percentage out of range, and a payment plan without its percentage', () => {
    expect(refusalOfParse(DepositBody, { percentage: '150' }).errors).toEqual({ percentage: 'Un pourcentage supérieur à 0 et au plus 100.' });
    const plan = validationError('payment_plan_config', 'payment_plan_config: deposit_then_balance needs {"percentage": "30"}');
    expect(refusalOf(plan)?.error).toBe('Échéancier : indiquez le pourcentage de l’acompte (ex. 30).');
  });

  it('an import row with a bad SIRET, as the wizard shows it', () => {
    const parsed = parseImportRow({ type: 'professionnel', company: 'Atelier', siret: '123' });
    expect(parsed).toEqual({ reason: expect.stringMatching(/^siret: /) });
    expect(frenchReason((parsed as { reason: string }).reason)).toBe('SIRET : le SIRET compte 14 chiffres.');
    expect(frenchReason('siret: SIRET must be 14 digits')).toBe('SIRET : le SIRET compte 14 chiffres.');
  });

  it('a state conflict by its code, and a refused item by its line', () => {
    expect(refusalOf(conflict('not_convertible', 'This document cannot be converted: it is a draft.'))).toEqual({
      refused: true,
      error: 'Ce devis ne peut pas être converti en facture.',
    });
    const line = validationError('items.2.vat_rate', 'items.2.vat_rate: must be between 0 and 100');
    expect(refusalOf(line)?.error).toBe('Ligne 3 — Taux de TVA : entre 0 et 100.');
    // A ZodError escaping a domain function becomes the API's 422, in English; the form reads it in French.
    const zod = DepositBody.safeParse({ percentage: 'abc' });
    expect(fromZodError(zod.error!).message).toMatch(/^percentage: must be a percentage string/);
    expect(refusalOf(fromZodError(zod.error!))?.errors).toEqual({ percentage: 'Nombre attendu (ex. 2,5).' });
  });
});
