// Rewrites README.md's configuration table, between its markers, from the schema of the environment
// (lib/platform/config/schema.ts). `npm run config:readme`; lib/platform/config/schema.test.ts fails when they differ.
import { readFileSync, writeFileSync } from 'node:fs';
import { withConfigurationTable } from '@/lib/platform/config';

const file = 'README.md';
const before = readFileSync(file, 'utf8');
const after = withConfigurationTable(before);
if (after === before) console.log('README.md: the configuration table is up to date');
else {
  writeFileSync(file, after);
  console.log('README.md: configuration table rewritten from lib/platform/config/schema.ts');
}
