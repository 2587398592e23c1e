import { z } from 'zod';
import type { CliExtension } from '@/lib/cli/program';
import { ApiError } from '@/lib/errors';
import { getOrg } from '@/lib/orgs/orgs';
import { verifyChain } from './hash-chain';

/** `chain:verify --org ID [--json]`: recomputes the org's hash chain; exit 1 on the first broken link. */
export const billingCli: CliExtension = (program, io, print) => {
  program
    .command('chain:verify')
    .description("Recompute every content hash of an org's finalized documents, in chain order, and report the first broken link")
    .requiredOption('--org <id>')
    .option('--json', 'JSON output')
    .action(async (o) => {
      const db = await io.db();
      const orgId = z.uuid().parse(o.org);
      await getOrg(db, orgId);
      const report = await verifyChain(db, orgId);
      const b = report.first_broken;
      const human = b
        ? [
            `Chain of org ${orgId} is BROKEN after ${report.verified} verified document(s).`,
            `First broken link: ${b.reason} at chain index ${b.chain_index ?? '-'} (document ${b.document_id ?? '-'}${b.number ? `, ${b.number}` : ''})`,
            `  expected: ${b.expected ?? 'null'}`,
            `  actual:   ${b.actual ?? 'null'}`,
          ].join('\n')
        : `Chain of org ${orgId} verified: ${report.verified} document(s), head ${report.head_hash ?? '(empty chain)'}.`;
      print(o.json, report, human);
      if (b) throw new ApiError(409, 'chain_broken', `hash chain broken (${b.reason} at chain index ${b.chain_index ?? '-'})`);
    });
};
