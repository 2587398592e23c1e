import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SIGN_TEXTS } from './texts';

const root = path.resolve(import.meta.dirname, '../../..');

/** Every key path of a texts object, functions included as leaves. */
function keys(value: unknown, prefix = ''): string[] {
  if (value === null || typeof value !== 'object') return [prefix];
  return Object.entries(value).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

/** The error codes the signer's API answers, as its source writes them (the page must say each in both languages). */
function signerApiCodes(): Set<string> {
  const files = ['signer-api.ts', 'signer-session.ts', 'otp.ts', 'signing.ts', 'completion.ts', 'signer-outcome.ts'].map((f) => readFileSync(path.join(root, 'lib/domain/signature', f), 'utf8'));
  const found = new Set<string>();
  for (const src of files) {
    for (const m of src.matchAll(/new ApiError\(\s*\d+,\s*'([a-z_]+)'/g)) found.add(m[1]!);
    for (const m of src.matchAll(/\bconflict\(\s*'([a-z_]+)'/g)) found.add(m[1]!);
    if (/\bvalidationError\(/.test(src)) found.add('validation_error');
    if (/\bnotFound\(/.test(src)) found.add('not_found');
  }
  return found;
}

describe('the signer page’s texts', () => {
  it('say the same things in French and English', () => {
    expect(keys(SIGN_TEXTS.en).sort()).toEqual(keys(SIGN_TEXTS.fr).sort());
  });

  it('have a French and an English sentence for every code the signer’s API answers', () => {
    const codes = [...signerApiCodes()];
    expect(codes).toEqual(expect.arrayContaining(['invalid_code', 'signer_locked', 'link_expired', 'consent_required', 'not_your_turn']));
    for (const lang of ['fr', 'en'] as const) {
      expect(codes.filter((code) => !SIGN_TEXTS[lang].errors[code]), lang).toEqual([]);
    }
  });

  it('word the steps’ functions with what they are given', () => {
    expect(SIGN_TEXTS.fr.invitedBy('Atelier Lumière')).toBe('Atelier Lumière vous invite à signer');
    expect(SIGN_TEXTS.en.codeSent('lea@client.test')).toBe('Code sent to lea@client.test. It is valid for 10 minutes.');
    expect(SIGN_TEXTS.fr.pageLabel(2, 5)).toBe('Page 2 sur 5');
  });
});
