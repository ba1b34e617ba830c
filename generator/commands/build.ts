/**
 * `agent-catalog build`: runs the pipeline (`build()` in `../build.ts`) and speaks to the
 * person or CI job that ran it: a progress line per stage on stderr when stderr is a
 * terminal, warnings on stderr, a closing summary on stdout (or exactly one JSON object
 * with `--json`, or nothing with `--quiet`), the error's cause chain once on stderr,
 * and the exit status CONTRACT.md defines.
 */
import { resolve } from 'node:path';
import { build } from '../build.js';
import type { ConfigOverrides } from '../config.js';
import { describeErrorChain, isCatalogError } from '../errors.js';
import type { Logger } from '../logger.js';
import { BUILD_STAGES, type BuildStage } from '../pipeline.js';
import type { SourceFormat } from '../sources/source-formats.js';
import { type BuildReport, formatReport, reportFailure, reportSuccess } from '../summary/report.js';
import type { CommandIo } from './io.js';

export interface BuildCommandOptions {
  config: string;
  source?: string;
  sourceFormat?: SourceFormat;
  out: string;
  siteUrl?: string;
  baseUrl?: string;
  authUrl?: string;
  json: boolean;
  quiet: boolean;
  strict: boolean;
  allowShrink: boolean;
  allowEmpty: boolean;
}

const STAGE_LABELS: Record<BuildStage, string> = {
  config: 'reading the config',
  upstream: 'fetching the upstream catalog',
  content: 'reading merchant content',
  merge: 'merging products and content',
  plan: 'planning the bundle',
  emit: 'emitting documents',
  validate: 'validating documents',
  publish: 'publishing',
};

function flagsOf(options: BuildCommandOptions): ConfigOverrides {
  return {
    ...(options.siteUrl !== undefined ? { site_url: options.siteUrl } : {}),
    ...(options.baseUrl !== undefined ? { base_url: options.baseUrl } : {}),
    ...(options.authUrl !== undefined ? { auth_url: options.authUrl } : {}),
    ...(options.source !== undefined ? { source: options.source } : {}),
    ...(options.sourceFormat !== undefined ? { source_format: options.sourceFormat } : {}),
  };
}

function colour(io: CommandIo, code: string, text: string): string {
  const plain = io.stderr.isTTY !== true || (io.env.NO_COLOR !== undefined && io.env.NO_COLOR !== '');
  return plain ? text : `\u001b[${code}m${text}\u001b[0m`;
}

/** Warnings always reach stderr; progress only on a terminal, so CI logs stay quiet. */
function createCliLogger(io: CommandIo, warnings: string[], progress: boolean): Logger {
  return {
    info: (message) => {
      if (progress) io.stderr.write(`${message}\n`);
    },
    warn: (message) => {
      warnings.push(message);
      io.stderr.write(`${colour(io, '33', 'warning:')} ${message}\n`);
    },
    debug: (message) => {
      if (io.env.AGENT_CATALOG_DEBUG) io.stderr.write(`debug: ${message}\n`);
    },
  };
}

function printFailure(io: CommandIo, error: unknown): void {
  const [first, ...causes] = describeErrorChain(error);
  const code = isCatalogError(error) ? error.code : 'INTERNAL';
  io.stderr.write(`agent-catalog build: ${colour(io, '31', `error ${code}`)}: ${first ?? ''}\n`);
  for (const cause of causes) io.stderr.write(`  caused by: ${cause}\n`);
  // An unexpected error is a bug: its stack helps whoever reports it.
  if (!isCatalogError(error) && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
}

function printReport(io: CommandIo, options: BuildCommandOptions, report: BuildReport): void {
  if (options.json) io.stdout.write(`${JSON.stringify(report)}\n`);
  else if (!options.quiet && report.ok) io.stdout.write(formatReport(report));
}

/** Returns the exit status (0 built, 1 upstream failed or refused, 2 bad input). */
export async function runBuild(options: BuildCommandOptions, io: CommandIo): Promise<number> {
  const started = performance.now();
  const warnings: string[] = [];
  const progress = io.stderr.isTTY === true && !options.quiet && !options.json;
  const logger = createCliLogger(io, warnings, progress);
  const onStage = (stage: BuildStage): void => {
    const step = `[${BUILD_STAGES.indexOf(stage) + 1}/${BUILD_STAGES.length}]`;
    logger.info(`${colour(io, '2', step)} ${STAGE_LABELS[stage]}`);
  };
  let report: BuildReport;
  try {
    const result = await build({
      configPath: options.config,
      out: options.out,
      cwd: io.cwd,
      flags: flagsOf(options),
      env: io.env,
      write: true,
      strict: options.strict,
      allowShrink: options.allowShrink,
      allowEmpty: options.allowEmpty,
      logger,
      onStage,
    });
    report = reportSuccess({
      changed: result.changed,
      published: result.published,
      products: result.plan.catalog.count,
      warnings,
      unusedContent: result.unusedContent.map((item) => item.file),
      feedExcluded: result.feedExcluded.map(({ product, rule }) => ({ product, rule })),
      changes: result.changes,
      out: result.out,
      generated: result.plan.generated,
      ...(result.previousGenerated !== undefined ? { previousGenerated: result.previousGenerated } : {}),
      upstream: result.upstream,
      files: result.files,
      baseline: result.baseline,
      hosts: result.hosts.map((fit) => ({
        host: fit.host,
        fits: fit.fits,
        breaches: fit.breaches.map((breach) => breach.message),
      })),
      cache: result.cache,
      durationMs: Math.round(performance.now() - started),
    });
  } catch (error) {
    printFailure(io, error);
    report = reportFailure(error, {
      out: resolve(io.cwd, options.out),
      warnings,
      durationMs: Math.round(performance.now() - started),
    });
  }
  printReport(io, options, report);
  return report.exitCode;
}
