import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain JavaScript build script, without types
import { lastSteps, rewriteSchematron } from './facturx-walk.mjs';

const SOURCES = {
  cen: 'schematron/cen-en16931-cii/EN16931-CII-validation.xslt',
  facturx: 'schematron/facturx-1.0.9/EN16931/Factur-X_1.09_EN16931.xsl',
  fr: 'schematron/fr-ctc/BR-FR-Flux2-Schematron-CII.xslt',
};
const read = (source: string) => readFileSync(path.join(process.cwd(), 'lib/domain/facturx/validation', source), 'utf8');
const count = (text: string, re: RegExp) => (text.match(re) ?? []).length;

describe('lastSteps: what a rule pattern can match', () => {
  it('names the last step, past predicates and unions', () => {
    expect(lastSteps('/rsm:CrossIndustryInvoice/rsm:ExchangedDocument[ram:TypeCode = "380"]/ram:ID[@schemeID]')).toEqual([{ kind: 'element', name: 'ram:ID' }]);
    expect(lastSteps("//ram:A[contains(., '/|[')] | ram:B/@currencyID")).toEqual([
      { kind: 'element', name: 'ram:A' },
      { kind: 'attribute', name: 'currencyID' },
    ]);
  });
  it('answers a wildcard for *, prefix:* and anything it cannot name, and the document for /', () => {
    expect(lastSteps('//*[not(*) and not(normalize-space())]')).toEqual([{ kind: 'element', name: null }]);
    expect(lastSteps("//ram:*[ends-with(name(), 'ID')]")).toEqual([{ kind: 'element', name: null }]);
    expect(lastSteps('//@*')).toEqual([{ kind: 'attribute', name: null }]);
    expect(lastSteps('/')).toEqual([{ kind: 'document' }]);
    expect(lastSteps('text()')).toEqual([{ kind: 'any' }]);
  });
});

describe('rewriteSchematron on the official stylesheets', () => {
  for (const [name, source] of Object.entries(SOURCES)) {
    it(`${name}: keeps every rule and assertion, applies every pattern from one walk, leaves no per-pattern walk`, () => {
      const official = read(source);
      const { xsl, patterns } = rewriteSchematron(official);
      expect(patterns).toBeGreaterThan(0);
      expect(count(xsl, /<svrl:fired-rule/g)).toBe(count(official, /<svrl:fired-rule/g));
      expect(count(xsl, /<svrl:failed-assert/g)).toBe(count(official, /<svrl:failed-assert/g));
      expect(count(xsl, /<svrl:successful-report/g)).toBe(count(official, /<svrl:successful-report/g));
      // No pattern mode recurses or is started from the root any more; the walk starts once.
      expect(xsl).not.toMatch(/<xsl:apply-templates\s+(?:mode="M\d+"\s+)?select="(?:@\*\|\*|\*|\/)"(?:\s+mode="M\d+")?\s*\/>/);
      expect(count(xsl, /<xsl:apply-templates select="\/" mode="paraphe-walk"\/>/g)).toBe(1);
      // The default-mode walks inside the active patterns are gone.
      expect(xsl).not.toMatch(/<svrl:active-pattern\b[\s\S]*?<xsl:apply-templates\s*\/>\s*<\/svrl:active-pattern>/);
    });
  }

  it('refuses a stylesheet of another shape rather than half rewriting it', () => {
    expect(() => rewriteSchematron('<xsl:stylesheet><xsl:template match="/"/></xsl:stylesheet>')).toThrow(/not an ISO Schematron/);
  });

  it('leaves the code-list lookups as written: an xsl:key over the pooled code lists leaks in SaxonJS', () => {
    const official = read(SOURCES.facturx);
    const { xsl } = rewriteSchematron(official);
    expect(xsl).not.toContain('<xsl:key');
    expect(count(xsl, /document\('FACTUR-X_EN16931_codedb\.xml'\)\/codedb\/cl\[/g)).toBe(count(official, /document\('FACTUR-X_EN16931_codedb\.xml'\)\/codedb\/cl\[/g));
  });
});
