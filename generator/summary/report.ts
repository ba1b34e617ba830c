/**
 * The closing summary of a build, as one object: printed as `--json` (exactly one JSON
 * object on stdout, success or failure) and rendered as a few lines for people. Field
 * names are part of the CLI's contract with CI jobs (docs/build.md, "The --json summary").
 */
import type { CacheReport } from '../cache/build-cache.js';
import { CatalogError, describeErrorChain, exitStatusFor, isCatalogError } from '../errors.js';
import { type CatalogChanges, NO_CHANGES } from './diff.js';

export interface BuildReport {
  ok: boolean;
  /** The process exit status: 0 built, 1 upstream failed or refused, 2 bad input. */
  exitCode: 0 | 1 | 2;
  /** Whether the bundle in `out` differs from the last one (false on failure). */
  changed: boolean;
  /** Whether this run wrote the bundle. */
  published: boolean;
  /** Products in the new catalog; null when the build failed. */
  products: number | null;
  warnings: string[];
  /** Content files no upstream product used this time (kept on disk, not published). */
  unusedContent: string[];
  /** Catalog products left out of feed.xml, with the Google rule each breaks. */
  feedExcluded: { product: string; variant?: string; rule: string }[];
  changes: CatalogChanges;
  /** Absolute output directory. */
  out: string | null;
  generated: string | null;
  previousGenerated: string | null;
  upstream: { format: string; requests: number } | null;
  /**
   * The bundle's files against the last bundle: written anew, kept byte for byte, and
   * removed. What a host uploads is `written`. Null when the build failed.
   */
  files: FileCounts | null;
  /**
   * What `changed` and `files` were counted against: the bundle in `out`, the bundle the
   * build cache remembers (`out` held none: the whole bundle was written), or nothing (a
   * first build); null on failure.
   */
  baseline: Baseline | null;
  /** Each host and whether the bundle fits it, with a line per limit it breaks; null on failure. */
  hosts: { host: string; fits: boolean; breaches: string[] }[] | null;
  /** The build cache beside the bundle: used, or created or rebuilt and why; null on failure. */
  cache: CacheReport | null;
  durationMs: number;
  error?: { code: string; message: string };
}

export type Baseline = 'bundle' | 'cache' | 'none';

export interface FileCounts {
  written: number;
  unchanged: number;
  removed: number;
}

export interface SuccessFacts {
  changed: boolean;
  published: boolean;
  products: number;
  warnings: string[];
  unusedContent: string[];
  feedExcluded: { product: string; variant?: string; rule: string }[];
  changes: CatalogChanges;
  out: string;
  generated: string;
  previousGenerated?: string;
  upstream: { format: string; requests: number };
  files: FileCounts;
  baseline?: Baseline;
  hosts: { host: string; fits: boolean; breaches: string[] }[];
  cache: CacheReport;
  durationMs: number;
}

export function reportSuccess(facts: SuccessFacts): BuildReport {
  return {
    ok: true,
    exitCode: 0,
    ...facts,
    previousGenerated: facts.previousGenerated ?? null,
    baseline: facts.baseline ?? null,
  };
}

export function reportFailure(
  error: unknown,
  facts: { out: string | null; warnings: string[]; durationMs: number },
): BuildReport {
  return {
    ok: false,
    exitCode: exitStatusFor(error),
    changed: false,
    published: false,
    products: null,
    warnings: facts.warnings,
    unusedContent: [],
    feedExcluded: [],
    changes: NO_CHANGES,
    out: facts.out,
    generated: null,
    previousGenerated: null,
    upstream: null,
    files: null,
    baseline: null,
    hosts: null,
    cache: null,
    durationMs: facts.durationMs,
    error: {
      code: isCatalogError(error) ? error.code : 'INTERNAL',
      message: describeErrorChain(error)[0] ?? 'unknown error',
    },
  };
}

/** The `--json` object for a command line that could not be parsed (commander's message). */
export function reportFlagError(message: string): BuildReport {
  return reportFailure(new CatalogError('FLAG_INVALID', message.replace(/^error: /, '')), {
    out: null,
    warnings: [],
    durationMs: 0,
  });
}

const LISTED = 20;

function listLines<T>(items: readonly T[], render: (item: T) => string): string[] {
  const lines = items.slice(0, LISTED).map((item) => `    ${render(item)}`);
  if (items.length > LISTED) lines.push(`    … and ${items.length - LISTED} more`);
  return lines;
}

/** The human summary (stdout); the failure itself goes to stderr with its cause chain. */
export function formatReport(report: BuildReport): string {
  if (!report.ok) return `build failed (${report.error?.code ?? 'INTERNAL'}), exit ${report.exitCode}\n`;
  const { changes } = report;
  const files = report.files;
  const headline =
    `${report.changed ? 'built' : 'unchanged'}: ${report.products} products in ${report.out}` +
    ` (changed: ${report.changed ? 'yes' : 'no'})` +
    (files
      ? `\n  files: ${files.written} written, ${files.unchanged} unchanged, ${files.removed} removed` +
        (report.baseline === 'cache'
          ? ' (against the bundle the build cache remembers; the whole bundle was written)'
          : '')
      : '') +
    (report.cache && report.cache.state !== 'used'
      ? `\n  build cache ${report.cache.state}: ${report.cache.reason ?? ''}`
      : '');
  const warnings = [
    `  warnings: ${report.warnings.length}`,
    ...(report.unusedContent.length > 0
      ? [
          `  unused content files: ${report.unusedContent.length}`,
          ...listLines(report.unusedContent, (file) => file),
        ]
      : []),
    ...(report.feedExcluded.length > 0
      ? [
          `  left out of feed.xml: ${report.feedExcluded.length}`,
          ...listLines(
            report.feedExcluded,
            (item) =>
              `${item.product}${item.variant === undefined ? '' : ` variant ${item.variant}`} (${item.rule})`,
          ),
        ]
      : []),
  ];
  if (report.previousGenerated === null)
    return `${[headline, ...warnings].join('\n')}\n  first bundle in this folder\n`;
  const lines = [
    headline,
    ...warnings,
    `  since the last bundle: ${changes.added.length} added, ${changes.removed.length} removed, ` +
      `${changes.price.length} price changes, ${changes.availability.length} availability changes`,
    ...listLines(changes.added, (slug) => `+ ${slug}`),
    ...listLines(changes.removed, (slug) => `- ${slug}`),
    ...listLines(changes.price, (c) => `price ${c.slug}: ${c.from} -> ${c.to}`),
    ...listLines(changes.availability, (c) => `availability ${c.slug}: ${c.from} -> ${c.to}`),
  ];
  return `${lines.join('\n')}\n`;
}
