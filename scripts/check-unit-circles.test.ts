import { describe, expect, it } from 'vitest';
import { checkUnitCircles, runtimeImports, stronglyConnected } from './check-unit-circles.mjs';

/** An in-memory tree: relative path → source. */
const check = (files: Record<string, string>) => checkUnitCircles('/nowhere', new Map(Object.entries(files)));

const BASE = {
  'lib/platform/events/index.ts': "import { operation } from '@/lib/platform/contract';\nexport const recordEvent = () => operation;\n",
  'lib/platform/contract/index.ts': "import type { EventType } from '@/lib/platform/events';\nexport const operation = 1;\n",
  'lib/domain/documents/index.ts': "import { recordEvent } from '@/lib/platform/events';\nimport { helper } from './helper';\nexport { recordEvent, helper };\n",
  'lib/domain/documents/helper.ts': 'export const helper = 1;\n',
  'lib/domain/documents/documents.test.ts': "import { manifest } from '@/lib/composition/modules';\n",
  'lib/composition/modules.ts': "import * as documents from '@/lib/domain/documents';\nexport const modules = [documents];\n",
};

describe('runtimeImports', () => {
  it('keeps value, side-effect and dynamic imports and re-exports; drops types, comments and strings', () => {
    const source = [
      "import { a } from './a';",
      "import type { B } from './b';",
      "import { type C, type D } from './c';",
      "import E, { type F } from './e';",
      "import './side-effect';",
      "export * from './star';",
      "export type { G } from './g';",
      "// import { h } from './commented';",
      "const message = 'import \"./quoted\" first';",
      "const lazy = () => import('./lazy');",
      "type T = typeof import('./typeof');",
      "type U = import('./type-expression').U;",
      "const later = import('./later').then((m) => m);",
    ].join('\n');
    expect(runtimeImports(source)).toEqual(['./a', './e', './side-effect', './star', './lazy', './later']);
  });
});

describe('checkUnitCircles', () => {
  it('finds no circle when the only way back is a type import or a test', () => {
    const { components, graph } = check(BASE);
    expect(components).toEqual([]);
    expect([...graph.get('domain/documents')!]).toEqual(['platform/events']);
    expect([...graph.get('platform/contract')!]).toEqual([]);
  });

  it('reports a circle of units with one example import per arrow', () => {
    const { components, cycles, edges } = check({
      ...BASE,
      'lib/platform/contract/examples.ts': "export const example = async () => (await import('@/lib/platform/events')).recordEvent;\n",
      'lib/platform/contract/index.ts': "export { example } from './examples';\nexport const operation = 1;\n",
    });
    expect(components).toEqual([['platform/contract', 'platform/events']]);
    expect(cycles).toEqual([[['platform/contract', 'platform/events', 'platform/contract']]]);
    expect(edges.get('platform/contract → platform/events')).toEqual({ file: 'lib/platform/contract/examples.ts', spec: '@/lib/platform/events' });
    expect(edges.get('platform/events → platform/contract')).toEqual({ file: 'lib/platform/events/index.ts', spec: '@/lib/platform/contract' });
  });
});

describe('stronglyConnected', () => {
  it('groups the units that reach each other', () => {
    const graph = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a', 'd'])],
      ['d', new Set<string>()],
    ]);
    expect(stronglyConnected(graph).sort()).toEqual([['a', 'b', 'c'], ['d']]);
  });
});
