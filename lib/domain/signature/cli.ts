import { z } from 'zod';
import type { CliExtension } from '@/lib/composition/cli/program';
import { ApiError } from '@/lib/platform/errors';
import { verifyEnvelope } from './verify';

const yes = (ok: boolean) => (ok ? 'ok' : 'FAILED');

/** `signature:verify --envelope ID [--json]`: the chain, the document hash and the seal; exit 1 when anything fails. */
export const signatureCli: CliExtension = (program, io, print) => {
  program
    .command('signature:verify')
    .description("Re-verify a signature envelope: its audit chain, the original document against document_hash, and the seal of the signed PDF")
    .requiredOption('--envelope <id>')
    .option('--json', 'JSON output')
    .action(async (o) => {
      const db = await io.db();
      const report = await verifyEnvelope(db, z.uuid().parse(o.envelope));
      const c = report.chain;
      const s = report.seal;
      const human = [
        `Envelope ${report.envelope_id} (${report.status}): ${report.ok ? 'VERIFIED' : 'VERIFICATION FAILED'}`,
        `Audit chain: ${c.ok ? `ok, ${c.count} event(s)` : `BROKEN at index ${c.first_broken?.index} (${c.first_broken?.reason}, event ${c.first_broken?.event_id})`}`,
        report.document
          ? `Document hash: ${yes(report.document.ok)} (expected ${report.document.expected}, stored file ${report.document.actual ?? 'missing'})`
          : 'Document hash: not sent yet (no document_hash)',
        s
          ? [
              `Seal: ${yes(s.ok)} — ${s.subfilter ?? 'no SubFilter'}; byte range ${yes(s.byte_range)}, digest ${yes(s.digest)}, signature ${yes(s.signature)}, certificate ${yes(s.certificate)}, stored hash ${yes(s.stored_hash)}`,
              `  certificate: ${s.certificate_subject ?? '-'} (SHA-256 ${s.certificate_sha256 ?? '-'})`,
              ...s.errors.map((e) => `  - ${e}`),
            ].join('\n')
          : 'Seal: no signed PDF',
      ].join('\n');
      print(o.json, report, human);
      if (!report.ok) throw new ApiError(409, 'verification_failed', `envelope ${report.envelope_id} does not verify`);
    });
};
