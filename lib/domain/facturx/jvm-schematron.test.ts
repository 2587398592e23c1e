import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain JavaScript build script, without types
import { corpus } from '@/scripts/facturx-equivalence.mjs';
import { schematronEngine, setSchematronEngine, validateEInvoice } from './einvoice-validation';
import { JvmSchematron, jvmAvailable } from './jvm-schematron';
import { parseSvrl } from './validate';

/**
 * The two schematron engines must refuse the same documents for the same reasons: the JVM runs the official
 * stylesheets with Saxon-HE, SaxonJS the one-walk rewrite compiled to SEF. Both answer every sample of the repository
 * and mutated copies of it (elements deleted, emptied, duplicated, values replaced: documents that break many rules)
 * with the same errors. CI installs Java and Saxon-HE (.ci/run); without them the JVM engine is not used.
 */
const SAMPLES = ['lib/domain/einvoicing/parse/fixtures/samples/factur-x-en16931.xml', 'lib/domain/einvoicing/parse/fixtures/samples/factur-x-basic.xml', 'lib/domain/facturx/fixtures/paraphe-facture.xml'];
const bases = SAMPLES.map((file) => readFileSync(path.join(process.cwd(), file), 'utf8'));
const initial = schematronEngine();
afterAll(() => setSchematronEngine(initial));

const sorted = (errors: unknown[]) => errors.map((e) => JSON.stringify(e)).sort();

describe.runIf(jvmAvailable())('the Saxon JVM engine', () => {
  it('answers every document with the errors SaxonJS gives, on the samples and 20 mutations of each', { timeout: 300_000 }, async () => {
    // A seed of its own: not the documents compile-facturx compared the rewrite on.
    const docs: string[] = corpus(bases, 20, 20261126);
    const answers: Record<string, string[][]> = { saxonjs: [], jvm: [] };
    for (const engine of ['saxonjs', 'jvm'] as const) {
      setSchematronEngine(engine);
      for (const xml of docs) {
        // A value no XPath cast accepts stops a stylesheet (the finalization then fails): it must stop both engines.
        answers[engine]!.push(await validateEInvoice(`${xml}<!-- ${engine} -->`).then(sorted, () => ['stopped']));
      }
    }
    const refused = answers.jvm!.filter((errors) => errors.length > 0 && errors[0] !== 'stopped').length;
    // The corpus does break rules, and of many kinds: the comparison below is not between empty lists.
    expect(refused).toBeGreaterThan(docs.length / 2);
    expect(new Set(answers.jvm!.flat().filter((e) => e !== 'stopped').map((e) => JSON.parse(e).rule)).size).toBeGreaterThan(20);
    for (const [i, errors] of answers.jvm!.entries()) expect(errors, `document ${i}`).toEqual(answers.saxonjs![i]);
  });

  it('accepts a valid invoice, says why a document is not XML, and keeps answering after a bad one', async () => {
    const jvm = new JvmSchematron();
    const good = await jvm.run(bases[2]!);
    expect(Object.keys(good.reports).sort()).toEqual(['cen', 'facturx', 'fr']);
    expect(Object.values(good.reports).flatMap((svrl) => parseSvrl(svrl)).filter((f) => f.flag !== 'warning' && f.flag !== 'information')).toEqual([]);
    const bad = await jvm.run('<rsm:CrossIndustryInvoice>not closed');
    expect(bad.reports).toEqual({});
    expect(bad.unparsable).toMatch(/\S/);
    // Several at once, answered each to its own request (two threads in the JVM).
    const wrongTotal = bases[2]!.replace(/<ram:GrandTotalAmount>([^<]*)</, '<ram:GrandTotalAmount>1.00<');
    const [a, b, c] = await Promise.all([jvm.run(wrongTotal), jvm.run(bases[2]!), jvm.run(wrongTotal)]);
    const rules = (r: typeof a) => Object.values(r.reports).flatMap((svrl) => parseSvrl(svrl).map((f) => f.id));
    expect(rules(a)).toEqual(rules(c));
    expect(rules(a).length).toBeGreaterThan(rules(b).length);
  });
});
