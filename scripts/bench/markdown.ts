/**
 * Renders a bench report as Markdown (one table per section, the machine and the load
 * average above them), written beside the JSON as bench-results/latest.md so the
 * figures can be pasted into BENCHMARKS.md exactly as measured.
 */
import { type BenchReport, type BenchRow, groupBySection } from './results.js';

function cell(value: number | string | null | undefined): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string') return value.replace(/\|/g, '\\|');
  if (Number.isInteger(value)) return value.toLocaleString('en-US');
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

function renderTable(rows: readonly BenchRow[]): string {
  const columns: string[] = [];
  for (const row of rows)
    for (const key of Object.keys(row.figures)) if (!columns.includes(key)) columns.push(key);
  const header = ['case', ...columns, 'target', 'verdict'];
  const lines = [
    `| ${header.join(' | ')} |`,
    `| ${header.map((_, i) => (i === 0 ? '---' : '---:')).join(' | ')} |`,
    ...rows.map(
      (row) =>
        `| ${[row.name, ...columns.map((c) => cell(row.figures[c])), cell(row.target ?? ''), `**${row.verdict}**`].join(' | ')} |`,
    ),
  ];
  const notes = rows.filter((row) => row.note).map((row) => `- ${row.name}: ${row.note}`);
  return [...lines, ...(notes.length > 0 ? ['', ...notes] : [])].join('\n');
}

export function renderMarkdown(report: BenchReport): string {
  const { machine } = report;
  const parts = [
    `Run \`${report.command}\` from ${report.startedAt} to ${report.finishedAt}.`,
    '',
    `Machine: ${machine.cpuModel}, ${machine.cores} cores (nproc), ${machine.memoryMiB.toLocaleString('en-US')} MiB, Node ${machine.node}, ${machine.platform}.`,
  ];
  for (const [section, rows] of groupBySection(report.rows)) {
    const load = report.load
      .filter((entry) => entry.section === section)
      .map((entry) => `${entry.when}: ${entry.loadavg.join(' / ')}`)
      .join('; ');
    parts.push(
      '',
      `### ${section}`,
      '',
      `Load average (1 / 5 / 15 min) ${load || 'not recorded'}.`,
      '',
      renderTable(rows),
    );
  }
  return `${parts.join('\n')}\n`;
}
