import '@/lib/composition/modules';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { unannounced, diffDocuments } from '@/lib/platform/openapi/diff';
import { CHANGELOG_FILE, CLIENT_TYPES_FILE, clientTypes, SNAPSHOT_FILE, snapshotText, stableDocument } from '@/lib/platform/openapi/generated';

/*
 * `npm run client:generate`: the typed client's types (clients/typescript/src/schema.d.ts) from the document.
 * `npm run openapi:snapshot`: the committed snapshot the breaking-change check compares with (lib/platform/openapi/snapshot.json);
 * it refuses while a breaking change is not named in docs/api-changelog.md (docs/api-versioning.md).
 */
const what = process.argv[2];
const document = stableDocument();
if (what === 'client') {
  writeFileSync(CLIENT_TYPES_FILE, await clientTypes(document));
  console.log(`${CLIENT_TYPES_FILE} written`);
} else if (what === 'snapshot') {
  // The first snapshot has nothing to compare with.
  const diff = existsSync(SNAPSHOT_FILE) ? await diffDocuments(JSON.parse(readFileSync(SNAPSHOT_FILE, 'utf8')), document) : { breaking: [], changed: true };
  const missing = unannounced(diff, readFileSync(CHANGELOG_FILE, 'utf8'));
  if (missing.length) {
    console.error(`Breaking changes not named in ${CHANGELOG_FILE} (add each line to its entry, see docs/api-versioning.md):`);
    for (const b of missing) console.error(`- ${b.mention}`);
    process.exit(1);
  }
  writeFileSync(SNAPSHOT_FILE, snapshotText(document));
  console.log(`${SNAPSHOT_FILE} written (${diff.breaking.length} breaking change(s), named in ${CHANGELOG_FILE})`);
} else {
  console.error('usage: tsx scripts/openapi-generate.ts client|snapshot');
  process.exit(2);
}
process.exit(0);
