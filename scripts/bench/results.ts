/**
 * The shape of every figure the benchmarks produce, and the two ways they leave the
 * process: a plain-text table per section on stdout and one JSON document (by default
 * bench-results/latest.json, git-ignored). A row carries its own target and verdict, so
 * BENCHMARKS.md and a CI log read the same way.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { MachineInfo } from './machine.js';

export type Verdict = 'pass' | 'miss' | 'info' | 'skipped';

export interface BenchRow {
  /** e.g. "generator", "fetch", "issuer". */
  section: string;
  /** What was measured, e.g. "build N=10000" or "discovery (sqlite)". */
  name: string;
  /** Column name → value; numbers are printed with a sensible precision. */
  figures: Record<string, number | string | null>;
  /** The target in words, e.g. "≤ 3× baseline". */
  target?: string;
  verdict: Verdict;
  note?: string;
}

export interface BenchReport {
  startedAt: string;
  finishedAt: string;
  command: string;
  machine: MachineInfo;
  /** Load average (1, 5, 15 min) sampled before and after each section. */
  load: { section: string; when: 'before' | 'after'; loadavg: number[] }[];
  rows: BenchRow[];
}

function formatValue(value: number | string | null): string {
  if (value === null) return '—';
  if (typeof value === 'string') return value;
  if (!Number.isFinite(value)) return String(value);
  if (Number.isInteger(value)) return value.toLocaleString('en-US');
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : Math.abs(value) >= 1 ? 2 : 3;
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** Renders rows of one section as an aligned text table (columns: the union of their figures). */
export function formatTable(rows: readonly BenchRow[]): string {
  const figureNames: string[] = [];
  for (const row of rows)
    for (const key of Object.keys(row.figures)) if (!figureNames.includes(key)) figureNames.push(key);
  const header = ['case', ...figureNames, 'target', 'verdict'];
  const body = rows.map((row) => [
    row.name,
    ...figureNames.map((key) => formatValue(row.figures[key] ?? null)),
    row.target ?? '',
    row.verdict,
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...body.map((cells) => (cells[column] ?? '').length)),
  );
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, column) =>
        column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0),
      )
      .join('  ')
      .trimEnd();
  const notes = rows.filter((row) => row.note).map((row) => `  * ${row.name}: ${row.note}`);
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...body.map(line), ...notes].join(
    '\n',
  );
}

/** Groups rows by section, in the order sections first appear. */
export function groupBySection(rows: readonly BenchRow[]): Map<string, BenchRow[]> {
  const groups = new Map<string, BenchRow[]>();
  for (const row of rows) {
    const group = groups.get(row.section) ?? [];
    group.push(row);
    groups.set(row.section, group);
  }
  return groups;
}

export async function writeReport(path: string, report: BenchReport): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `${JSON.stringify(report, null, 2)}\n`);
}

/** A verdict from a measured value and a limit; `higherIsBetter` for throughput. */
export function judge(value: number | null, limit: number, higherIsBetter: boolean): Verdict {
  if (value === null || !Number.isFinite(value)) return 'miss';
  return (higherIsBetter ? value >= limit : value <= limit) ? 'pass' : 'miss';
}

/** One verdict for a row with several targets: a pass only when every one passes. */
export function allPass(verdicts: readonly Verdict[]): Verdict {
  return verdicts.every((verdict) => verdict === 'pass') ? 'pass' : 'miss';
}
