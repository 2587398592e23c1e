import { z } from 'zod';
import type { CliExtension } from '@/lib/composition/cli/program';
import { connectAccount } from './connect-account';

const yesNo = (b: boolean) => (b ? 'yes' : 'no');

/** `payments:connect --org ID --account acct_… [--json]`: links an existing provider account and reads its readiness. */
export const paymentsCli: CliExtension = (program, io, print) => {
  program
    .command('payments:connect')
    .description("Link an org to an existing Stripe account (Connect) and read the account's readiness at once")
    .requiredOption('--org <id>')
    .requiredOption('--account <acct_…>', 'the connected account id')
    .option('--json', 'JSON output')
    .action(async (o) => {
      const db = await io.db();
      const state = await connectAccount(db, z.uuid().parse(o.org), String(o.account).trim());
      const human = [
        `Connected ${state.account_id} to org ${state.org_id}.`,
        `  charges enabled:   ${yesNo(state.charges_enabled)}`,
        `  details submitted: ${yesNo(state.details_submitted)}`,
        `  card payments:     ${state.card_payments}`,
        `  SEPA debit:        ${state.sepa_debit_payments}`,
        `  requirements due:  ${state.requirements_due.length ? state.requirements_due.join(', ') : 'none'}`,
        ...(state.charges_enabled ? [] : ['The account cannot take payments yet: finish its onboarding (Settings → Paiements).']),
      ].join('\n');
      print(o.json, state, human);
    });
};
