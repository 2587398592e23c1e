import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkTableWrites } from './check-table-writes.mjs';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A tree in a temporary folder: relative path → content. */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'check-table-writes-'));
  roots.push(root);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), text);
  }
  return root;
}

const SCHEMA = {
  'db/schema/widgets.ts': "export const widgets = pgTable('widgets', { id: uuid('id') });\nexport const widgetParts = pgTable(\n  'widget_parts',\n  { id: uuid('id') },\n);\n",
  'db/schema/platform.ts': "export const outbox = pgTable('outbox', { id: uuid('id') });\n",
  'db/schema/ownership.ts': "export const tableOwners = {\n  // widgets\n  widgets: 'domain/widgets',\n  widget_parts: 'domain/widgets',\n  // the outbox\n  outbox: 'platform/outbox',\n} as const;\n",
  'lib/platform/outbox/index.ts': `import { outbox } from '@/db/schema';\nexport const record = (tx) => tx.execute(sql\`insert into \${outbox} (id) values (1)\`);\n`,
  'lib/domain/widgets/index.ts': [
    "import { widgets, widgetParts as parts } from '@/db/schema';",
    'export const make = (tx) => tx.insert(widgets).values({}).onConflictDoUpdate({ target: widgets.id, set: {} });',
    'export const drop = (tx) => tx.delete(parts);',
    "export const raw = (tx) => tx.execute(sql`UPDATE public.\"widget_parts\" p SET id = 1`);",
    '',
  ].join('\n'),
  'lib/domain/billing/index.ts': "export const mention = 'tx.update(widgets) is not called here'; // nor tx.delete(widgets)\n",
};

describe('checkTableWrites', () => {
  it('accepts a tree where every table is written by its owner only', () => {
    const result = checkTableWrites(tree(SCHEMA));
    expect(result.mapProblems).toEqual([]);
    expect(result.violations).toEqual([]);
    expect(result.writes.map((w) => `${w.file}:${w.line} ${w.verb} ${w.table}`)).toEqual([
      'lib/domain/widgets/index.ts:2 insert widgets',
      'lib/domain/widgets/index.ts:3 delete widget_parts',
      'lib/domain/widgets/index.ts:4 update widget_parts',
      'lib/platform/outbox/index.ts:2 insert outbox',
    ]);
  });

  it('refuses a write by another unit, by app/, in raw SQL or through an alias; test code is exempt', () => {
    const root = tree({
      ...SCHEMA,
      'lib/domain/billing/pay.ts': [
        "import { outbox as log, widgets } from '@/db/schema';",
        'export const pay = async (tx) => {',
        '  await tx.update(log).set({});',
        `  await tx.execute(sql\`delete from widgets where id = \${'x'}\`);`,
        `  await tx.execute(sql\`insert into \${widgets} (id) values (1) on conflict (id) do update set id = 2\`);`,
        '};',
        '',
      ].join('\n'),
      'app/page.tsx': "import { widgets } from '@/db/schema';\nexport default async function Page() {\n  await db.update(widgets).set({});\n}\n",
      'lib/domain/billing/pay.test.ts': "tx.insert(widgets).values({});\n",
      'lib/domain/billing/testing.ts': "tx.insert(widgets).values({});\n",
      'lib/testing/fixtures.ts': "tx.insert(widgets).values({});\n",
    });
    const lines = checkTableWrites(root).violations.map((v) => `${v.file}:${v.line}: ${v.unit} writes ${v.table} (owned by ${v.owner})`);
    expect(lines).toEqual([
      'app/page.tsx:3: app writes widgets (owned by domain/widgets)',
      'lib/domain/billing/pay.ts:3: domain/billing writes outbox (owned by platform/outbox)',
      'lib/domain/billing/pay.ts:4: domain/billing writes widgets (owned by domain/widgets)',
      'lib/domain/billing/pay.ts:5: domain/billing writes widgets (owned by domain/widgets)',
    ]);
  });

  it('refuses a table without owner, an owner entry without table, an owner that is no unit', () => {
    const root = tree({
      ...SCHEMA,
      'db/schema/ownership.ts': "export const tableOwners = {\n  widgets: 'domain/widgets',\n  gadgets: 'domain/widgets',\n  outbox: 'platform/nowhere',\n} as const;\n",
    });
    expect(checkTableWrites(root).mapProblems).toEqual([
      'db/schema/widgets.ts: table widget_parts (widgetParts) has no owner in db/schema/ownership.ts',
      'db/schema/ownership.ts: gadgets is no table of db/schema',
      "db/schema/ownership.ts: the owner 'platform/nowhere' of outbox is no unit of lib/platform or lib/domain",
    ]);
  });
});
