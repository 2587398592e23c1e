import '@/lib/modules';
import { closeDatabase, getDb } from '@/db/client';
import { billingCli } from '@/lib/documents/cli';
import { runCli } from '@/lib/cli/program';
import { invoiceSettingsCli } from '@/lib/invoice-settings/cli';
import { paymentsCli } from '@/lib/payments/cli';
import { signatureCli } from '@/lib/signature';

const code = await runCli(process.argv.slice(2), {
  db: getDb,
  out: (line) => console.log(line),
  err: (line) => console.error(line),
}, [billingCli, paymentsCli, invoiceSettingsCli, signatureCli]);
await closeDatabase().catch(() => {});
process.exit(code);
