import { Command, CommanderError } from 'commander';
import { z } from 'zod';
import type { Db } from '@/db/client';
import { ApiKeyEnv, createApiKey, parseScopeList, revokeApiKey } from '@/lib/platform/auth';
import { ApiError, fromZodError } from '@/lib/platform/errors';
import { parseEuros } from '@/lib/platform/money';
import { addMembership, createOrg, createUser, findUserByEmail, getOrg, Role } from '@/lib/platform/orgs';

export interface CliIo {
  /** Opened lazily: `--help` and argument errors never touch the database (it may be locked). */
  db: () => Promise<Db>;
  out: (line: string) => void;
  err: (line: string) => void;
}

/** A command's extra subcommands, contributed by modules (e.g. billing's chain:verify). */
export type CliExtension = (program: Command, io: CliIo, print: (json: boolean, value: unknown, human: string) => void) => void;

export function buildProgram(io: CliIo, extensions: CliExtension[] = []): Command {
  const print = (json: boolean, value: unknown, human: string) => io.out(json ? JSON.stringify(value, null, 2) : human);
  const program = new Command('paraphe')
    .description('Paraphe administration')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s.trimEnd()), writeErr: (s) => io.err(s.trimEnd()) })
    .showHelpAfterError();

  program
    .command('db:migrate')
    .description('Apply pending migrations (also done at every start)')
    .option('--json', 'JSON output')
    .action(async (o) => {
      await io.db();
      print(o.json, { migrated: true }, 'Database is up to date.');
    });

  program
    .command('orgs:create')
    .description('Create an organisation with its legal identity')
    .requiredOption('--name <name>')
    .option('--legal-name <s>')
    .option('--legal-form <s>', 'SAS, SARL, EURL, EI…')
    .option('--share-capital <euros>', 'share capital in euros')
    .option('--siren <9 digits>')
    .option('--siret <14 digits>')
    .option('--vat-number <s>')
    .option('--rcs <s>', 'e.g. "RCS Paris 732 829 320"')
    .option('--address <s>')
    .option('--postal-code <s>')
    .option('--city <s>')
    .option('--country <XX>', 'ISO 3166-1 alpha-2', 'FR')
    .option('--email <s>')
    .option('--phone <s>')
    .option('--json', 'JSON output')
    .action(async (o) => {
      const org = await createOrg(await io.db(), {
        name: o.name,
        legal_name: o.legalName,
        legal_form: o.legalForm,
        share_capital_cents: o.shareCapital === undefined ? undefined : parseEuros(o.shareCapital, 'share-capital'),
        siren: o.siren,
        siret: o.siret,
        vat_number: o.vatNumber,
        rcs: o.rcs,
        address: o.address,
        postal_code: o.postalCode,
        city: o.city,
        country: o.country,
        email: o.email,
        phone: o.phone,
      });
      print(o.json, org, `Created org ${org.name} (${org.id})`);
    });

  program
    .command('users:create')
    .description('Create a staff user (or add an existing one) as a member of an org')
    .requiredOption('--org <id>')
    .requiredOption('--email <email>')
    .option('--password <password>', 'required for a new user, at least 10 characters')
    .option('--name <name>')
    .option('--role <role>', 'owner, admin or member', 'member')
    .option('--json', 'JSON output')
    .action(async (o) => {
      const db = await io.db();
      const role = Role.parse(o.role);
      const orgId = z.uuid().parse(o.org);
      await getOrg(db, orgId);
      const existing = await findUserByEmail(db, o.email);
      const user = existing
        ? { id: existing.id, email: existing.email, name: existing.name }
        : await createUser(db, { email: o.email, password: o.password ?? '', name: o.name });
      await addMembership(db, orgId, user.id, role);
      print(o.json, { ...user, org_id: orgId, role }, `${existing ? 'Added' : 'Created'} ${user.email} as ${role} of ${orgId}`);
    });

  program
    .command('api-keys:create')
    .description('Create an API key; the key is printed once')
    .requiredOption('--org <id>')
    .requiredOption('--scopes <list>', 'comma-separated, e.g. contacts:read,invoice:write, or "all"')
    .option('--name <name>', 'key name', 'CLI key')
    .option('--env <env>', 'live or test', 'live')
    .option('--json', 'JSON output')
    .action(async (o) => {
      const db = await io.db();
      const orgId = z.uuid().parse(o.org);
      await getOrg(db, orgId);
      const { key, apiKey } = await createApiKey(db, orgId, { name: o.name, scopes: parseScopeList(o.scopes), env: ApiKeyEnv.parse(o.env) });
      print(o.json, { ...apiKey, key }, `${key}\n(key ${apiKey.id}; shown once — store it now)`);
    });

  program
    .command('api-keys:revoke')
    .description('Revoke an API key (effective at once here, within 5 s on running servers)')
    .requiredOption('--id <id>')
    .option('--json', 'JSON output')
    .action(async (o) => {
      const db = await io.db();
      const id = z.uuid().parse(o.id);
      const [row] = await db.query.apiKeys.findMany({ where: (k, { eq }) => eq(k.id, id), limit: 1 });
      if (!row) throw new ApiError(404, 'not_found', `API key ${id} not found.`, 'id');
      const key = await revokeApiKey(db, row.org_id, id);
      print(o.json, key, `Revoked ${key.prefix}… (${key.id})`);
    });

  for (const extend of extensions) extend(program, io, print);
  return program;
}

/** Runs the CLI; returns the exit code. Errors are one clear line, never a stack. */
export async function runCli(argv: string[], io: CliIo, extensions: CliExtension[] = []): Promise<number> {
  const program = buildProgram(io, extensions);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 2;
    const apiError = err instanceof z.ZodError ? fromZodError(err) : err;
    if (apiError instanceof ApiError) {
      io.err(`error: ${apiError.message}${apiError.field && !apiError.message.includes(apiError.field) ? ` (${apiError.field})` : ''}`);
      return 1;
    }
    io.err(`error: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
}
