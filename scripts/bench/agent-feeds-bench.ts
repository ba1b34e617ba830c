/**
 * The agent feeds' cost (issue 25): the same real build (the CLI process) of a Shopify
 * catalog with the OpenAI and ACP feeds off and then on, taking turns, at 100,000 products
 * by default (the largest `--sizes` value otherwise): the wall time, CPU and peak RSS the
 * feeds add, and the bytes they publish. No target is set by the issue; the rows are
 * information, and the note says whether the feeds stayed within a tenth of the build.
 */
import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { median, runMeasured } from './child-process.js';
import { failure } from './generator-startup.js';
import { writeShopifyFixture } from './make-shopify-products.js';
import type { BenchOptions } from './options.js';
import { CATALOG_CLI, makeScratchDir, REPO_ROOT } from './paths.js';
import type { BenchRow } from './results.js';

const MB = 1_000_000;

async function bytesUnder(dir: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  let total = 0;
  for (const entry of entries)
    if (entry.isFile()) total += (await stat(join(entry.parentPath, entry.name))).size;
  return total;
}

async function writeConfig(dir: string, fixture: string, feedsOn: boolean): Promise<string> {
  const config = JSON.parse(await readFile(join(REPO_ROOT, 'catalog.config.json'), 'utf8')) as Record<
    string,
    unknown
  >;
  config.upstream = { format: 'shopify', source: fixture, timeout_ms: 3_600_000 };
  delete config.content_dir;
  const feeds = config.agent_feeds as { openai: { enabled: boolean }; acp: { enabled: boolean } };
  feeds.openai.enabled = feedsOn;
  feeds.acp.enabled = feedsOn;
  const path = join(dir, `catalog-${feedsOn ? 'feeds' : 'plain'}.config.json`);
  await writeFile(path, JSON.stringify(config, null, 2));
  return path;
}

interface Figures {
  ms: number;
  cpu: number | null;
  rssMB: number | null;
}

export async function benchAgentFeeds(
  options: BenchOptions,
  log: (line: string) => void,
): Promise<BenchRow[]> {
  const size = options.quick ? 1_000 : Math.max(100_000, ...options.sizes);
  const dir = await makeScratchDir(`feeds-${size}`);
  try {
    const fixture = join(dir, 'products.json');
    await writeShopifyFixture(fixture, size);
    const configs = {
      plain: await writeConfig(dir, fixture, false),
      feeds: await writeConfig(dir, fixture, true),
    };
    const runs: Record<'plain' | 'feeds', Figures[]> = { plain: [], feeds: [] };
    let feedBytes = 0;
    let variants = 0;
    const rounds = options.quick ? 1 : 2;
    for (let round = 0; round < rounds; round++) {
      for (const mode of ['plain', 'feeds'] as const) {
        log(`agent feeds: N=${size}, feeds ${mode === 'feeds' ? 'on' : 'off'}, round ${round + 1}`);
        const out = join(dir, `dist-${mode}-${round}`);
        const run = await runMeasured(
          process.execPath,
          [CATALOG_CLI, 'build', '--config', configs[mode], '--out', out, '--allow-shrink', '--quiet'],
          { cwd: dir },
        );
        if (run.exitCode !== 0) throw failure(`build N=${size} (${mode})`, run);
        runs[mode].push({
          ms: run.wallMs,
          cpu: run.cpuMs,
          rssMB: run.peakRssMiB === null ? null : (run.peakRssMiB * 1024 * 1024) / MB,
        });
        if (mode === 'feeds') {
          feedBytes = await bytesUnder(join(out, 'feeds'));
          const manifest = JSON.parse(await readFile(join(out, 'feeds/openai/manifest.json'), 'utf8'));
          variants = manifest.row_count;
        }
        await rm(out, { recursive: true, force: true });
      }
    }
    const summary = (mode: 'plain' | 'feeds') => ({
      ms: median(runs[mode].map((run) => run.ms)),
      cpu: runs[mode].some((run) => run.cpu === null) ? null : median(runs[mode].map((run) => run.cpu ?? 0)),
      rssMB: runs[mode].some((run) => run.rssMB === null)
        ? null
        : Math.max(...runs[mode].map((run) => run.rssMB ?? 0)),
    });
    const plain = summary('plain');
    const feeds = summary('feeds');
    const addedMs = feeds.ms - plain.ms;
    return [
      {
        section: 'feeds',
        name: `build N=${size}, feeds off`,
        figures: { 'wall ms': plain.ms, 'cpu ms': plain.cpu, 'peak RSS MB': plain.rssMB },
        verdict: 'info',
      },
      {
        section: 'feeds',
        name: `build N=${size}, OpenAI + ACP feeds on`,
        figures: {
          'wall ms': feeds.ms,
          'cpu ms': feeds.cpu,
          'peak RSS MB': feeds.rssMB,
          'feed rows': variants,
          'feed MB on disk': feedBytes / MB,
        },
        verdict: 'info',
        note: `the feeds add ${Math.round(addedMs)} ms (${((addedMs / plain.ms) * 100).toFixed(0)}% of the build) and ${
          feeds.rssMB === null || plain.rssMB === null ? '?' : Math.round(feeds.rssMB - plain.rssMB)
        } MB of peak RSS`,
      },
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
