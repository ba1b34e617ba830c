#!/usr/bin/env node
/**
 * The `agent-catalog` command line: the only module of the generator that imports
 * commander. It parses flags, hands them to a command function and sets `process.exitCode`
 * from its result; flag errors exit 2 with the usage policy both CLIs share
 * (`cli/cli-usage.ts`), as CONTRACT.md says.
 */
import { Command, InvalidArgumentError, Option } from 'commander';
import { applyUsagePolicy, usageExitStatus } from '../cli/cli-usage.js';
import { processIo } from './commands/io.js';
import { growHeapSlowly } from './heap-policy.js';
import { keepMallocLean } from './malloc-policy.js';
import { overridingFlagHelp } from './override-docs.js';
import { SOURCE_FORMATS } from './sources/source-formats.js';
import { reportFlagError } from './summary/report.js';

// Each command's module (and the pipeline, validators and server behind it) is imported
// only when that command runs, so `--help` and flag errors start in well under 150 ms
// instead of loading every dependency first (issue 7, BENCHMARKS.md).

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65_535)
    throw new InvalidArgumentError('expected a port number from 0 to 65535');
  return port;
}

function parseRateLimit(value: string): number {
  const limit = Number(value);
  if (!/^\d+$/.test(value) || limit < 1 || limit > 100_000) {
    throw new InvalidArgumentError('expected a whole number of requests a minute from 1 to 100000');
  }
  return limit;
}

/** The flags `preview` and `serve` share (CONTRACT.md, "npm scripts"). */
function addServerOptions(command: Command): Command {
  return command
    .option('--dir <dir>', 'bundle directory', 'dist')
    .option('--port <port>', 'port (0 picks a free one)', parsePort, 8080)
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--quiet', 'no request log', false);
}

export function createProgram(): Command {
  const program = applyUsagePolicy(
    new Command('agent-catalog').description('Publish a merchant catalog for AI agents as a static bundle.'),
  );
  const io = processIo();

  program
    .command('build')
    .description('fetch the upstream catalog, merge content and publish the bundle')
    .option('--config <file>', 'config file', 'catalog.config.json')
    .option('--source <url-or-path>', overridingFlagHelp('--source'))
    .addOption(
      new Option('--source-format <format>', overridingFlagHelp('--source-format')).choices(SOURCE_FORMATS),
    )
    .option('--out <dir>', 'output directory', 'dist')
    .option('--site-url <url>', overridingFlagHelp('--site-url'))
    .option('--base-url <url>', overridingFlagHelp('--base-url'))
    .option('--auth-url <url>', overridingFlagHelp('--auth-url'))
    .option('--json', 'print exactly one JSON summary object on stdout', false)
    .addOption(new Option('--quiet', 'print nothing on stdout').default(false).conflicts('json'))
    .option('--strict', 'fail when an upstream product is invalid', false)
    .option('--allow-shrink', 'publish even when the catalog shrank sharply', false)
    .option('--allow-empty', 'publish a catalog with no product at all', false)
    .action(async (options) => {
      growHeapSlowly();
      await keepMallocLean();
      const { runBuild } = await import('./commands/build.js');
      process.exitCode = await runBuild(options, io);
    });

  program
    .command('check')
    .description('validate a bundle on disk or a live site against every format it claims')
    .argument('[dir-or-url]', 'bundle directory or site URL', 'dist')
    .option('--json', 'print the report as JSON', false)
    .option(
      '--as <site_url>',
      'judge a site URL as if it were served at <site_url> (e.g. preview of a production bundle)',
    )
    .action(async (target: string, options: { json: boolean; as?: string }) => {
      growHeapSlowly();
      await keepMallocLean();
      const { runCheck } = await import('./commands/check.js');
      const as = options.as !== undefined ? { as: options.as } : {};
      process.exitCode = await runCheck({ target, json: options.json, ...as }, io);
    });

  addServerOptions(program.command('preview').description('serve a built bundle exactly as the CDN would'))
    .option('--rate-limit <n>', 'enforce N requests a minute per client', parseRateLimit)
    .action(async (options) => {
      const { runPreview } = await import('./commands/preview.js');
      process.exitCode = await runPreview(options, io);
    });

  addServerOptions(
    program
      .command('serve')
      .description('serve a bundle, live handler included, for a merchant who hosts it themselves'),
  ).action(async (options) => {
    const { runPreview } = await import('./commands/preview.js');
    process.exitCode = await runPreview({ ...options, command: 'serve' }, io);
  });

  program
    .command('hooks')
    .description("print the store's webhook subscriptions for a fresh catalog; --register creates them")
    .option('--config <file>', 'config file', 'catalog.config.json')
    .addOption(
      new Option('--platform <platform>', 'the store platform (default: from the config)').choices([
        'shopify',
        'woocommerce',
      ]),
    )
    .option('--base-url <url>', overridingFlagHelp('--base-url'))
    .option(
      '--register',
      "create the missing subscriptions through the store's Admin API (credentials from the environment)",
      false,
    )
    .option('--admin-url <url>', "the store's Admin API origin (default: the upstream's origin)")
    .option('--json', 'print exactly one JSON object on stdout', false)
    .action(async (options) => {
      const { runHooks } = await import('./commands/hooks.js');
      process.exitCode = await runHooks(options, io);
    });

  return program;
}

export async function main(argv: readonly string[]): Promise<void> {
  try {
    await createProgram().parseAsync([...argv]);
  } catch (error) {
    const usageStatus = usageExitStatus(error);
    if (usageStatus !== undefined && error instanceof Error) {
      // Help and version exit 0; every flag mistake is a usage error: exit 2.
      process.exitCode = usageStatus;
      if (usageStatus === 2 && argv.includes('build') && argv.includes('--json')) {
        // `build --json` promises one JSON object on stdout, even when the flags are wrong.
        process.stdout.write(`${JSON.stringify(reportFlagError(error.message))}\n`);
      }
      return;
    }
    process.stderr.write(`agent-catalog: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}

await main(process.argv);
