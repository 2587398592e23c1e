import '@/lib/composition/modules';
import { closeDatabase, getDb } from '@/db/client';
import { billingCli } from '@/lib/domain/documents/cli';
import { backupCli } from '@/lib/composition/backup/cli';
import { runCli } from '@/lib/composition/cli/program';
import { invoiceSettingsCli } from '@/lib/domain/invoice-settings/cli';
import { paymentsCli } from '@/lib/domain/payments/cli';
import { signatureCli } from '@/lib/domain/signature';

const code = await runCli(process.argv.slice(2), {
  db: getDb,
  out: (line) => console.log(line),
  err: (line) => console.error(line),
}, [billingCli, paymentsCli, invoiceSettingsCli, signatureCli, backupCli()]);
await closeDatabase().catch(() => {});
process.exit(code);
