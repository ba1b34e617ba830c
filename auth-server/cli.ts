#!/usr/bin/env node
/**
 * `agent-auth`: the issuer's command line (CONTRACT "agent-auth commands"). `serve` is the
 * default; `customers add`, `keys rotate`, `keys rewrap` and `migrate` work on the same database while a
 * server runs. This is the only module of the issuer that imports commander (the usage
 * policy it shares with `agent-catalog` is `cli/cli-usage.ts`), reads `process.env` or
 * stdin, and sets the exit status: 0 done, 1 failed at run time, 2 bad flags or input.
 */
import { Command, Option } from 'commander';
import { applyUsagePolicy, refuseUnknownCommand, refuseUsage, usageExitStatus } from '../cli/cli-usage.js';
import { ConfigError, type IssuerConfig, type IssuerConfigInput, resolveConfig } from './config.js';
import { addCustomer, CustomerInputError } from './customers.js';
import { applyDevDefaults, DevModeError, devModeBanner, type ValueSource } from './dev-mode.js';
import { forTerminal, linesForTerminal } from './display-text.js';
import { coalescedWrite, createJsonLogger } from './logger.js';
import { MerchantConfigError } from './merchant.js';
import { withMigratedStore } from './migrated-store.js';
import { explainStartupError, StartupError } from './startup-errors.js';

// The server (Express, every route, jose) and the database drivers are imported only by
// the commands that use them, so `--help` and flag errors start fast (BENCHMARKS.md);
// migrated-store.ts loads the drivers on first use.
interface DbFlags {
  db?: string;
  keyEncryptionKeyFile?: string;
}

function kekFileOption(): Option {
  return new Option(
    '--key-encryption-key-file <path>',
    'file holding the key that encrypts the private signing keys at rest (or set AUTH_KEY_ENCRYPTION_KEY)',
  ).env('AUTH_KEY_ENCRYPTION_KEY_FILE');
}

function dbOption(): Option {
  return new Option(
    '--db <url-or-path>',
    'SQLite file path or postgres:// URL (default data/auth.sqlite)',
  ).env('AUTH_DATABASE_URL');
}

type MailFlags = Partial<Record<'catalogConfig' | 'smtpUrl' | 'mailFrom' | 'mail' | 'outboxDir', string>> & {
  allowSignup?: boolean;
};

function configFrom(
  flags: DbFlags &
    MailFlags &
    Partial<
      Record<
        | 'port'
        | 'host'
        | 'issuer'
        | 'rateLimit'
        | 'trustProxy'
        | 'registrationLimit'
        | 'reapUnusedClients'
        | 'resource',
        string
      >
    >,
): IssuerConfig {
  // An empty variable (PORT= …) counts as unset rather than as an invalid value.
  const given = (value: string | undefined): value is string => value !== undefined && value !== '';
  const input: IssuerConfigInput = {};
  if (given(flags.port)) input.port = flags.port;
  if (given(flags.host)) input.host = flags.host;
  if (given(flags.issuer)) input.issuer = flags.issuer;
  if (given(flags.db)) input.db = flags.db;
  if (given(flags.rateLimit)) input.rateLimit = flags.rateLimit;
  if (flags.trustProxy !== undefined) input.trustProxy = flags.trustProxy;
  if (flags.registrationLimit !== undefined) input.registrationLimit = flags.registrationLimit;
  if (flags.reapUnusedClients !== undefined) input.unusedClientDays = flags.reapUnusedClients;
  // Several resources separate with commas or spaces (a URI holds neither unencoded).
  if (given(flags.resource)) input.resources = flags.resource.split(/[\s,]+/).filter((r) => r !== '');
  if (given(flags.catalogConfig)) input.catalogConfig = flags.catalogConfig;
  if (given(flags.smtpUrl)) input.smtpUrl = flags.smtpUrl;
  if (given(flags.mailFrom)) input.mailFrom = flags.mailFrom;
  if (given(flags.outboxDir)) input.outboxDir = flags.outboxDir;
  if (flags.mail === 'outbox' || flags.mail === 'smtp') input.mail = flags.mail;
  else if (given(flags.mail)) throw new ConfigError(`--mail: expected outbox or smtp, got ${flags.mail}`);
  if (flags.allowSignup) input.allowSignup = true;
  if (given(flags.keyEncryptionKeyFile)) input.keyEncryptionKeyFile = flags.keyEncryptionKeyFile;
  // The key itself only ever comes from the environment: a flag would show it in `ps`.
  if (given(process.env.AUTH_KEY_ENCRYPTION_KEY))
    input.keyEncryptionKey = process.env.AUTH_KEY_ENCRYPTION_KEY;
  return resolveConfig(input);
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin)
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  // CONTRACT: "the password is read from stdin, one trailing newline dropped".
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

async function runServe(
  given: DbFlags & Record<string, string | undefined> & { dev?: boolean },
  sourceOf: (option: string) => ValueSource,
): Promise<void> {
  const { dev, ...rest } = given;
  const flags = dev ? applyDevDefaults(rest, sourceOf) : rest;
  // --dev also lets a Client ID Metadata Document live on loopback (http allowed there).
  const config = { ...configFrom(flags), allowLoopbackClientMetadata: dev === true };
  const logger = createJsonLogger(coalescedWrite(process.stdout));
  const { startIssuer } = await import('./server.js');
  const running = await startIssuer({ config, logger }).catch((error: unknown) => {
    throw explainStartupError(error, config);
  });
  if (dev) {
    process.stderr.write(devModeBanner(flags));
    logger.warn('development mode: relaxed limits, never use in production', {
      rateLimit: config.rateLimit,
      registrationLimit: config.registrationLimit,
    });
  }
  const stop = () => {
    running.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  // Handlers before the line: a supervisor may signal the moment it reads it, and a signal
  // that arrives before its handler kills the process without draining.
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  process.stdout.write(`listening on ${running.url}\n`);
  logger.info('issuer started', { issuer: running.issuer, db: running.store.dialect });
}

async function runCustomersAdd(flags: DbFlags & { email: string; name: string; passwordStdin?: boolean }) {
  if (!flags.passwordStdin)
    throw new CustomerInputError('--password-stdin is required (passwords never go in flags)');
  const config = configFrom(flags);
  const password = await readStdin();
  await withMigratedStore(config, async (store) => {
    const id = await addCustomer(
      store,
      { email: flags.email, name: flags.name, password },
      Math.floor(Date.now() / 1000),
    );
    process.stdout.write(`created customer ${id}\n`);
  });
}

async function runKeysRotate(flags: DbFlags): Promise<void> {
  const config = configFrom(flags);
  const { loadKeyEncryptionKey } = await import('./key-protection.js');
  const kek = await loadKeyEncryptionKey(config);
  await withMigratedStore(config, async (store) => {
    const { rotateSigningKeys } = await import('./keys.js');
    const added = await rotateSigningKeys(store, config, Date.now, kek);
    process.stdout.write(
      `added signing keys ${added.join(', ')}; they sign from ${config.jwksMaxAge} s from now\n`,
    );
  });
}

async function runKeysRewrap(flags: DbFlags & { oldKeyFile?: string; newKeyFile: string }): Promise<void> {
  const config = configFrom(flags);
  const { readKeyEncryptionKeyFile, rewrapSigningKeys } = await import('./key-protection.js');
  const from = flags.oldKeyFile === undefined ? undefined : await readKeyEncryptionKeyFile(flags.oldKeyFile);
  const to = await readKeyEncryptionKeyFile(flags.newKeyFile);
  await withMigratedStore(config, async (store) => {
    const changed = await rewrapSigningKeys(store, from, to);
    process.stdout.write(`re-encrypted ${changed} signing keys under key-encryption key ${to.id}\n`);
  });
}

async function runMigrate(flags: DbFlags): Promise<void> {
  await withMigratedStore(configFrom(flags), async () => {
    process.stdout.write('database schema is up to date\n');
  });
}

/** The mail flags shared by `serve`, `customers invite` and `customers import`. */
function mailOptions(): Option[] {
  return [
    new Option(
      '--issuer <url>',
      'issuer identifier, used in mailed links (default http://127.0.0.1:<port>)',
    ).env('AUTH_ISSUER'),
    new Option(
      '--catalog-config <path>',
      "the catalog's config file: the merchant's name, logo, store link and support contact",
    ).env('AUTH_CATALOG_CONFIG'),
    new Option(
      '--smtp-url <url>',
      // A flag shows in `ps` to every user on the machine; a URL with a password belongs in the env.
      'send mail over SMTP: smtps://… (TLS), smtp://… (STARTTLS required) or smtp+insecure://127.0.0.1… (loopback relay only); with a password, set AUTH_SMTP_URL instead',
    ).env('AUTH_SMTP_URL'),
    new Option('--mail-from <address>', 'From address of mail (default no-reply at the issuer host)').env(
      'AUTH_MAIL_FROM',
    ),
    new Option(
      '--mail <transport>',
      'outbox: write .eml files instead of sending (default without --smtp-url)',
    ),
    new Option('--outbox-dir <dir>', 'where the outbox writes (default data/outbox)').env('AUTH_OUTBOX_DIR'),
  ];
}

async function runCustomersInvite(flags: DbFlags & MailFlags & { email: string; name: string }) {
  const { runInvite } = await import('./customer-commands.js');
  process.stdout.write(await runInvite(configFrom(flags), stderrLogger(), flags));
}

async function runCustomersImport(file: string, flags: DbFlags & MailFlags) {
  const { runImport } = await import('./customer-commands.js');
  process.stdout.write(await runImport(configFrom(flags), stderrLogger(), file));
}

// The maintenance commands keep stdout for their result; their log lines go to stderr.
const stderrLogger = () => createJsonLogger((line) => process.stderr.write(line));

function describeError(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && depth < 5; depth++) {
    parts.push(current instanceof Error ? current.message : String(current));
    current = current instanceof Error ? current.cause : undefined;
  }
  return parts.join(': caused by: ');
}

function fail(error: unknown): void {
  // A start-up error already says what to fix; its cause chain would only bury that.
  const message = error instanceof StartupError ? error.message : describeError(error);
  // Messages quote flags and file names as given: escaped, so they cannot drive the terminal.
  process.stderr.write(`agent-auth: ${forTerminal(message)}\n`);
  const badKey =
    typeof error === 'object' && error !== null && 'code' in error && error.code === 'KEK_INVALID';
  const badInput =
    error instanceof ConfigError ||
    error instanceof CustomerInputError ||
    error instanceof DevModeError ||
    error instanceof MerchantConfigError ||
    badKey;
  process.exitCode = badInput ? 2 : 1;
}

/** The serve options `agent-auth --help` shows, so the default command is visible from the top. */
const MAIN_SERVE_OPTIONS = ['--dev', '--port', '--host', '--db', '--issuer', '--catalog-config'];

/** Help text after the command list: `serve` is the default, and its main options, from its own definitions. */
function defaultCommandHelp(serve: Command): string {
  const help = serve.createHelp();
  const shown = serve.options.filter((option) => MAIN_SERVE_OPTIONS.includes(option.long ?? ''));
  const width = Math.max(...shown.map((option) => help.optionTerm(option).length));
  const rows = shown.map(
    (option) => `  ${help.optionTerm(option).padEnd(width)}  ${help.optionDescription(option)}`,
  );
  return [
    '',
    'Without a command, agent-auth runs `serve` (npm run auth -- --dev starts a local issuer).',
    'Main options of serve (all of them: agent-auth serve --help):',
    ...rows,
  ].join('\n');
}

/** `--password` is accepted only to say where passwords go: a flag would show it in `ps`. */
function passwordFlagOption(): Option {
  return new Option('--password [password]').hideHelp();
}

function refusePasswordFlag(flags: { password?: unknown }, command: Command): void {
  if (flags.password !== undefined) refuseUsage(command, 'passwords are read from stdin: --password-stdin');
}

function buildProgram(): Command {
  // The usage policy first: commander copies it to each subcommand as it is created.
  const program = applyUsagePolicy(
    new Command('agent-auth').description('OAuth 2.0 / OpenID Connect issuer for agent-catalog'),
  );
  // commander's own errors quote a flag or command as typed: escaped like every other line.
  program.configureOutput({ outputError: (text, write) => write(linesForTerminal(text)) });
  const serve = program
    .command('serve', { isDefault: true })
    .description('run the issuer (the default command)')
    .addOption(
      new Option('--port <port>', 'port to listen on (0 = any free port)').env('PORT').default('4000'),
    )
    .addOption(new Option('--host <host>', 'interface to bind').default('127.0.0.1'))
    .addOption(dbOption())
    .addOption(
      new Option('--rate-limit <per-minute>', 'requests a minute per client; 0 = off')
        .env('AUTH_RATE_LIMIT')
        .default('60'),
    )
    .addOption(
      new Option(
        '--trust-proxy <list>',
        'proxies whose X-Forwarded-For is believed (addresses, CIDRs, loopback); default none',
      ).env('AUTH_TRUST_PROXY'),
    )
    .addOption(
      new Option('--registration-limit <per-hour>', 'client registrations an hour per address; 0 = off')
        .env('AUTH_REGISTRATION_LIMIT')
        .default('10'),
    )
    .addOption(
      new Option(
        '--reap-unused-clients <days>',
        'delete clients that never obtained a token after this many days; 0 = never',
      )
        .env('AUTH_REAP_UNUSED_CLIENTS')
        .default('30'),
    )
    .addOption(
      new Option(
        '--resource <urls>',
        'the resources (RFC 8707) tokens may be for, comma-separated; default the issuer and {base_url}/mcp of --catalog-config',
      ).env('AUTH_RESOURCES'),
    )
    .option(
      '--dev',
      'local development: rate limits and registration throttle off unless set, client metadata documents on loopback allowed; loopback only',
    )
    .addOption(kekFileOption())
    .addOption(new Option('--allow-signup', 'let people open an account themselves (verified by mail)'));
  for (const option of mailOptions()) serve.addOption(option);
  serve.action((flags, command: Command) =>
    runServe(flags, (option) => command.getOptionValueSource(option)).catch(fail),
  );
  const customers = program.command('customers').description('manage customer accounts');
  customers
    .command('add')
    .description('create a customer account; the password is read from stdin')
    .requiredOption('--email <email>', 'email address (sign-in name)')
    .requiredOption('--name <name>', 'display name')
    .option('--password-stdin', 'read the password from stdin (one trailing newline dropped)')
    .addOption(passwordFlagOption())
    .addOption(dbOption())
    .action((flags, command: Command) => {
      refusePasswordFlag(flags, command);
      return runCustomersAdd(flags).catch(fail);
    });
  const invite = customers
    .command('invite')
    .description('create an account without a password and mail a link to choose one')
    .requiredOption('--email <email>', 'email address (sign-in name)')
    .requiredOption('--name <name>', 'display name')
    .addOption(dbOption());
  for (const option of mailOptions()) invite.addOption(option);
  invite.action((flags) => runCustomersInvite(flags).catch(fail));
  const importCommand = customers
    .command('import')
    .description("invite every customer of a store's customer export (Shopify or WooCommerce CSV)")
    .argument('<file.csv>', 'the export')
    .addOption(dbOption());
  for (const option of mailOptions()) importCommand.addOption(option);
  importCommand.action((file: string, flags) => runCustomersImport(file, flags).catch(fail));
  const keys = program.command('keys').description('manage signing keys');
  keys
    .command('rotate')
    .description('add new signing keys; the old ones keep verifying until they retire')
    .addOption(dbOption())
    .addOption(kekFileOption())
    .action((flags) => runKeysRotate(flags).catch(fail));
  keys
    .command('rewrap')
    .description('re-encrypt every private signing key under a new key-encryption key')
    .option(
      '--old-key-file <path>',
      'file with the current key-encryption key (omit if the keys are not encrypted yet)',
    )
    .requiredOption('--new-key-file <path>', 'file with the new key-encryption key')
    .addOption(dbOption())
    .action((flags) => runKeysRewrap(flags).catch(fail));
  program
    .command('migrate')
    .description('bring the database schema up to date')
    .addOption(dbOption())
    .action((flags) => runMigrate(flags).catch(fail));
  program.addHelpText('after', defaultCommandHelp(serve));
  return program;
}

async function main(argv: readonly string[]): Promise<void> {
  const program = buildProgram();
  refuseUnknownCommand(program, argv.slice(2));
  await program.parseAsync([...argv]);
}

main(process.argv).catch((error: unknown) => {
  // Commander has already printed the mistake, the suggestion and the usage.
  const usageStatus = usageExitStatus(error);
  if (usageStatus !== undefined) process.exitCode = usageStatus;
  else fail(error);
});
