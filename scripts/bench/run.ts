/**
 * `npm run bench`: runs the benchmarks the options select (generator, read, feeds, fetch, issuer, live, search, hosts, hooks),
 * prints one table per section and writes every row, the machine and the load average to
 * a JSON report (bench-results/latest.json by default) and the same as Markdown beside
 * it. Not part of `npm test`: timing belongs here, not in assertions. See BENCHMARKS.md
 * for the targets and the figures.
 */
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { benchAgentFeeds } from './agent-feeds-bench.js';
import { benchFetch } from './fetch-bench.js';
import { benchGenerator } from './generator-bench.js';
import { benchHooks } from './hooks-bench.js';
import { benchHosts } from './hosts-bench.js';
import { benchIssuers } from './issuer-bench.js';
import { benchLive } from './live-bench.js';
import { describeMachine, readLoadAverage, waitForQuiet } from './machine.js';
import { renderMarkdown } from './markdown.js';
import { type BenchOptions, type BenchPart, parseBenchOptions } from './options.js';
import { REPO_ROOT } from './paths.js';
import { benchRead } from './read-bench.js';
import { type BenchReport, type BenchRow, formatTable, groupBySection, writeReport } from './results.js';
import { benchSearchScale } from './search-scale-bench.js';

type Section = (options: BenchOptions, log: (line: string) => void) => Promise<BenchRow[]>;

const SECTIONS: Record<BenchPart, Section> = {
  generator: benchGenerator,
  read: benchRead,
  feeds: benchAgentFeeds,
  fetch: benchFetch,
  issuer: benchIssuers,
  live: benchLive,
  search: benchSearchScale,
  hosts: benchHosts,
  hooks: benchHooks,
};

function log(line: string): void {
  process.stderr.write(`bench: ${line}\n`);
}

async function runSections(options: BenchOptions, report: BenchReport): Promise<void> {
  for (const part of options.parts) {
    report.load.push({ section: part, when: 'before', loadavg: readLoadAverage() });
    log(`${part}: starting (load ${readLoadAverage().join(' ')})`);
    try {
      report.rows.push(...(await SECTIONS[part](options, log)));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      log(`${part} failed: ${message}`);
      report.rows.push({
        section: part,
        name: `${part} (failed)`,
        figures: {},
        verdict: 'miss',
        note: message.slice(0, 500),
      });
    }
    report.load.push({ section: part, when: 'after', loadavg: readLoadAverage() });
  }
}

function printReport(report: BenchReport, out: string): void {
  const lines = [
    `machine: ${report.machine.cpuModel}, ${report.machine.cores} cores, ${report.machine.memoryMiB} MiB, node ${report.machine.node}`,
  ];
  for (const [section, rows] of groupBySection(report.rows)) {
    const load = report.load
      .filter((entry) => entry.section === section)
      .map((e) => `${e.when} ${e.loadavg.join(' ')}`);
    lines.push('', `## ${section}  (load average ${load.join('; ')})`, formatTable(rows));
  }
  lines.push('', `written to ${out} (and .md beside it)`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

async function main(): Promise<void> {
  let options: BenchOptions;
  try {
    options = parseBenchOptions(process.argv.slice(2), process.env);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
    return;
  }
  if (options.waitQuietSeconds > 0) {
    const quiet = await waitForQuiet(options.quietLoad, options.waitQuietSeconds, (load) =>
      log(`waiting for the 1-minute load to fall under ${options.quietLoad} (now ${load.join(' ')})`),
    );
    log(
      quiet.quiet
        ? `quiet after ${quiet.waitedSeconds} s`
        : `still busy after ${quiet.waitedSeconds} s; measuring anyway`,
    );
  }
  const report: BenchReport = {
    startedAt: new Date().toISOString(),
    finishedAt: '',
    command: `npm run bench -- ${process.argv.slice(2).join(' ')}`.trim(),
    machine: await describeMachine(),
    load: [],
    rows: [],
  };
  await runSections(options, report);
  report.finishedAt = new Date().toISOString();
  const out = resolve(REPO_ROOT, options.out);
  await writeReport(out, report);
  await writeFile(`${out.replace(/\.json$/, '')}.md`, renderMarkdown(report));
  printReport(report, out);
}

await main();
