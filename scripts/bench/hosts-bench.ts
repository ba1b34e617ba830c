/**
 * The hosts at 100,000 products (issue 30, item 5), the `hosts` section of `npm run bench`:
 * the store built for Cloudflare Pages (documents in parts) and for Netlify (documents
 * whole), as `test/hosts/large-store.test.ts` builds it (`large-store.ts`); per host, the
 * bundle's files, its largest file and fullest folder, the parts of its most parted
 * document, the build's wall and CPU time, and whether the bundle fits the host's limits
 * (`generator/hosting`). Then the time to stream `/agent-catalog` whole from `preview` and
 * `wrangler pages dev` (the Cloudflare bundle, its parts joined by the live handler) and
 * from `netlify dev --offline` (the Netlify bundle's static file), first and median of
 * three, with the CPU the server spent (its whole process group for an engine). 1,000
 * products with `--quick`.
 */
import { rm } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { readBundleDirShape } from '../../generator/hosting/bundle-shape.js';
import { checkHostFit } from '../../generator/hosting/host-fit.js';
import type { HostName } from '../../generator/hosting/host-limits-table.js';
import { type RunningEngine, startNetlify, startWrangler } from '../../test/hosts/engines.js';
import { buildLargeStore, type LargeStoreBuild, type RunBuild } from '../../test/hosts/large-store.js';
import { median, runMeasured, startServer } from './child-process.js';
import { readProcessGroupCpuMs } from './cpu-time.js';
import type { BenchOptions } from './options.js';
import { CATALOG_CLI, makeScratchDir } from './paths.js';
import type { BenchRow } from './results.js';

const MIB = 1024 * 1024;
const BUILD_LIMIT_MS = 60 * 60_000;
const STREAM_LIMIT_MS = 5 * 60_000;
const CATALOG = '/agent-catalog';

interface BuildCost {
  cpuMs: number | null;
  peakRssMiB: number | null;
}

interface Stream {
  ms: number;
  bytes: number;
  serverCpuMs: number | null;
}

/** A server to stream from: its URL and a reader of the CPU it has spent so far. */
interface Streamed {
  name: string;
  url: string;
  cpuMs(): Promise<number | null>;
}

async function streamOnce(server: Streamed): Promise<Stream> {
  const before = await server.cpuMs();
  const started = performance.now();
  const res = await fetch(`${server.url}${CATALOG}`, { signal: AbortSignal.timeout(STREAM_LIMIT_MS) });
  if (res.status !== 200 || res.body === null) throw new Error(`${server.name} answered ${res.status}`);
  let bytes = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.length;
  }
  const ms = performance.now() - started;
  const after = await server.cpuMs();
  return { ms, bytes, serverCpuMs: before === null || after === null ? null : after - before };
}

/** A server that cannot stream the document is a row saying why (wrangler pages dev at 100,000). */
async function streamRow(size: number, server: Streamed, repeats: number): Promise<BenchRow> {
  const name = `stream ${CATALOG} N=${size.toLocaleString('en-US')} on ${server.name}`;
  const runs: Stream[] = [];
  try {
    for (let round = 0; round < repeats; round++) runs.push(await streamOnce(server));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      section: 'hosts',
      name,
      figures: {},
      target: 'recorded',
      verdict: 'miss',
      note: reason.slice(0, 400),
    };
  }
  const [first] = runs;
  const ms = median(runs.map((run) => run.ms));
  const cpu = runs.map((run) => run.serverCpuMs);
  const bytes = first?.bytes ?? 0;
  return {
    section: 'hosts',
    name,
    figures: {
      MiB: bytes / MIB,
      'first ms': first?.ms ?? null,
      'median ms': ms,
      'MiB/s': bytes / MIB / (ms / 1000),
      'server CPU ms': cpu.every((value): value is number => value !== null) ? median(cpu) : null,
    },
    target: 'recorded',
    verdict: 'info',
    note: `median of ${runs.length}; the first includes the handler's cold start`,
  };
}

async function bundleRow(
  size: number,
  host: HostName,
  build: LargeStoreBuild,
  cost: BuildCost | undefined,
): Promise<BenchRow> {
  const shape = await readBundleDirShape(build.dir);
  const fit = checkHostFit(shape, host);
  return {
    section: 'hosts',
    name: `bundle N=${size.toLocaleString('en-US')} for ${host}`,
    figures: {
      files: shape.files,
      'largest file': shape.largestFile.path,
      'largest MiB': shape.largestFile.bytes / MIB,
      'fullest folder': `${shape.fullestFolder.path || '.'} (${shape.fullestFolder.files})`,
      'most parts': shape.mostParts.parts,
      'build s': build.wallMs / 1000,
      'build CPU s': cost?.cpuMs === null || cost === undefined ? null : cost.cpuMs / 1000,
      'build peak MiB': cost?.peakRssMiB ?? null,
    },
    target: `fits ${host}`,
    verdict: fit.fits ? 'pass' : 'miss',
    ...(fit.fits ? {} : { note: fit.breaches.map((breach) => breach.message).join('; ') }),
  };
}

function engineStreamed(engine: RunningEngine): Streamed {
  return { name: engine.name, url: engine.url, cpuMs: () => readProcessGroupCpuMs(engine.pid) };
}

/** Streams from each server in turn, each started alone so the others' work is not measured. */
async function streamRows(size: number, dirs: { cloudflare: string; netlify: string }, repeats: number) {
  const rows: BenchRow[] = [];
  const preview = await startServer(
    process.execPath,
    [CATALOG_CLI, 'preview', '--dir', dirs.cloudflare, '--port', '0'],
    {
      timeoutMs: 120_000,
    },
  );
  try {
    rows.push(await streamRow(size, { name: 'preview', url: preview.url, cpuMs: preview.cpuMs }, repeats));
  } finally {
    await preview.stop();
  }
  for (const [start, dir] of [
    [startWrangler, dirs.cloudflare],
    [startNetlify, dirs.netlify],
  ] as const) {
    const engine = await start(dir);
    try {
      rows.push(await streamRow(size, engineStreamed(engine), repeats));
    } finally {
      await engine.stop();
    }
  }
  return rows;
}

async function benchSize(size: number, repeats: number, log: (line: string) => void): Promise<BenchRow[]> {
  const root = await makeScratchDir(`hosts-${size}`);
  try {
    const costs: BuildCost[] = [];
    const runBuild: RunBuild = async (args, cwd) => {
      log(`hosts N=${size}: agent-catalog ${args.slice(0, 3).join(' ')}`);
      const run = await runMeasured(process.execPath, [CATALOG_CLI, ...args], {
        cwd,
        timeoutMs: BUILD_LIMIT_MS,
      });
      if (run.exitCode !== 0) throw new Error(`build exited ${run.exitCode}: ${run.stderr.slice(-800)}`);
      costs.push({ cpuMs: run.cpuMs, peakRssMiB: run.peakRssMiB });
    };
    const store = await buildLargeStore(root, size, runBuild);
    const rows = [
      await bundleRow(size, 'cloudflare-pages-free', store.cloudflare, costs[0]),
      await bundleRow(size, 'netlify', store.netlify, costs[1]),
    ];
    log(`hosts N=${size}: streaming ${CATALOG}`);
    rows.push(
      ...(await streamRows(size, { cloudflare: store.cloudflare.dir, netlify: store.netlify.dir }, repeats)),
    );
    return rows;
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

export async function benchHosts(options: BenchOptions, log: (line: string) => void): Promise<BenchRow[]> {
  const size = options.quick ? 1_000 : 100_000;
  try {
    return await benchSize(size, options.quick ? 1 : 3, log);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    log(`hosts N=${size} failed: ${reason.slice(0, 300)}`);
    return [
      { section: 'hosts', name: `hosts N=${size}`, figures: {}, verdict: 'miss', note: reason.slice(-600) },
    ];
  }
}
