import { z } from 'zod';
import type { CliExtension } from '@/lib/composition/cli/program';
import { ApiError } from '@/lib/platform/errors';
import { getOrg } from '@/lib/platform/orgs';
import { verifyChain } from './hash-chain';

/** `chain:verify --org ID [--json]`: recomputes the org's hash chain; exit 1 on the first broken link or a skipped number. */
export const billingCli: CliExtension = (program, io, print) => {
  program
    .command('chain:verify')
    .description("Recompute every content hash of an org's finalized documents, in chain order, and report the first broken link and any skipped number")
    .requiredOption('--org <id>')
    .option('--json', 'JSON output')
    .action(async (o) => {
      const db = await io.db();
      const orgId = z.uuid().parse(o.org);
      await getOrg(db, orgId);
      const report = await verifyChain(db, orgId);
      const b = report.first_broken;
      const skipped = report.skipped_numbers.map((g) => `${g.type} ${g.year}: ${g.from === g.to ? g.from : `${g.from} to ${g.to}`}`);
      const human = [
        b
          ? [
              `Chain of org ${orgId} is BROKEN after ${report.verified} verified document(s).`,
              `First broken link: ${b.reason} at chain index ${b.chain_index ?? '-'} (document ${b.document_id ?? '-'}${b.number ? `, ${b.number}` : ''})`,
              `  expected: ${b.expected ?? 'null'}`,
              `  actual:   ${b.actual ?? 'null'}`,
            ].join('\n')
          : `Chain of org ${orgId} verified: ${report.verified} document(s), head ${report.head_hash ?? '(empty chain)'}.`,
        ...(skipped.length ? [`Numbers SKIPPED (no finalized document carries them): ${skipped.join('; ')}.`] : []),
      ].join('\n');
      print(o.json, report, human);
      if (b) throw new ApiError(409, 'chain_broken', `hash chain broken (${b.reason} at chain index ${b.chain_index ?? '-'})`);
      if (skipped.length) throw new ApiError(409, 'numbers_skipped', `numbers skipped (${skipped.join('; ')})`);
    });
};
