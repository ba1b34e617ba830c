/**
 * `agent-catalog check` without the command line: reads a bundle from a directory or a
 * live site and runs the same gate the build runs before it publishes. What only a live
 * site can get wrong (statuses, headers) is reported beside the gate's own problems.
 */
import { resolve } from 'node:path';
import { CatalogError } from '../errors.js';
import { readBundleDirShape } from '../hosting/bundle-shape.js';
import { checkEveryHost, type HostFit } from '../hosting/host-fit.js';
import { silentLogger } from '../logger.js';
import { startPreviewServer } from '../preview/server.js';
import { type Problem, validateBundle } from '../validate/index.js';
import { describeStaleness, type Freshness, judgeFreshness } from './freshness.js';
import { createProbeFetch, essenceOf } from './probe-http.js';
import { type ProbeResult, runProbes } from './probes.js';
import { readBundleDir } from './read-dir.js';
import { normaliseSiteUrl, readBundleSite } from './read-site.js';
import { levelOf } from './readiness-level.js';

export interface CheckResult {
  target: string;
  kind: 'dir' | 'site';
  /** How many documents were read. */
  documents: number;
  problems: Problem[];
  /** The agent-readiness probes, and the level they reach (0 to 5). */
  probes: ProbeResult[];
  level: number;
  /** A live site's: how old its data is (the health document's `generated`). */
  freshness?: Freshness;
  /** What is worth knowing but is not a problem (a site whose data is older than twice its cache). */
  warnings: string[];
  /** For a directory: whether the bundle fits each host's deploy limits (a site is already deployed). */
  hosts: HostFit[];
}

export interface CheckOptions {
  /** Relative directories resolve against this. */
  cwd: string;
  timeoutMs?: number;
  /** Judge a site target as if it were served at this site_url (`--as`). */
  as?: string;
  /** Milliseconds since the epoch, for the age of a site's data; tests move it. */
  now?: () => number;
}

export function isSiteTarget(target: string): boolean {
  return /^https?:\/\//i.test(target);
}

/** Throws FLAG_INVALID for a target that is neither a directory nor an http(s) URL. */
export async function checkTarget(target: string, options: CheckOptions): Promise<CheckResult> {
  if (isSiteTarget(target)) {
    const site = await readBundleSite(target, {
      ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
      ...(options.as !== undefined ? { as: options.as } : {}),
    });
    const problems = [...site.problems, ...validateBundle(site.files)];
    const probes = await probeSite(normaliseSiteUrl(target), undefined, options.timeoutMs);
    const freshness = judgeFreshness(site.files, (options.now ?? Date.now)());
    return {
      target,
      kind: 'site',
      documents: site.files.size,
      problems,
      probes,
      level: levelOf(probes),
      ...(freshness ? { freshness } : {}),
      warnings: freshness?.stale ? [describeStaleness(freshness)] : [],
      hosts: [],
    };
  }
  if (options.as !== undefined) {
    throw new CatalogError('FLAG_INVALID', `--as applies to a site URL, not to the directory ${target}`, {
      target,
    });
  }
  const dir = resolve(options.cwd, target);
  const files = await readBundleDir(dir);
  const problems = validateBundle(files);
  const hosts = checkEveryHost(await readBundleDirShape(dir));
  // A directory is probed as the hosts serve it: through preview, on a loopback port.
  const preview = files.has('_headers')
    ? await startPreviewServer({ dir, port: 0, host: '127.0.0.1', logger: silentLogger })
    : undefined;
  try {
    // Model (a)'s bundle has its own landing page; in model (b) the store owns `/`.
    const storeOwnsRoot = !files.has('index.html');
    const probes =
      preview === undefined ? [] : await probeSite(preview.url, storeOwnsRoot, options.timeoutMs);
    // A directory's age says nothing about the live site: only a site is judged for freshness.
    return {
      target,
      kind: 'dir',
      documents: files.size,
      problems,
      probes,
      level: levelOf(probes),
      hosts,
      warnings: [],
    };
  } finally {
    await preview?.close();
  }
}

/**
 * Runs the probes against a served bundle. Whether the store owns `/` (model (b)) is known
 * from a directory's files; on a live site, model (a)'s landing page has its Markdown twin
 * `/index.md` in the bundle, which a store's origin does not serve.
 */
async function probeSite(
  base: string,
  storeOwnsRoot: boolean | undefined,
  timeoutMs = 15_000,
): Promise<ProbeResult[]> {
  const fetch = createProbeFetch(base, timeoutMs);
  const twin = storeOwnsRoot === undefined ? await fetch('/index.md') : undefined;
  const storeRoot = storeOwnsRoot ?? !(twin?.status === 200 && essenceOf(twin) === 'text/markdown');
  return runProbes(fetch, storeRoot);
}
