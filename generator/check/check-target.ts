/**
 * `agent-catalog check` without the command line: reads a bundle from a directory or a
 * live site and runs the same gate the build runs before it publishes. What only a live
 * site can get wrong (statuses, headers) is reported beside the gate's own problems.
 */
import { resolve } from 'node:path';
import { CatalogError } from '../errors.js';
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
    const probes = await probeSite(normaliseSiteUrl(target), options.timeoutMs);
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
  // A directory is probed as the hosts serve it: through preview, on a loopback port.
  const preview = files.has('_headers')
    ? await startPreviewServer({ dir, port: 0, host: '127.0.0.1', logger: silentLogger })
    : undefined;
  try {
    const probes = preview === undefined ? [] : await probeSite(preview.url, options.timeoutMs);
    // A directory's age says nothing about the live site: only a site is judged for freshness.
    return {
      target,
      kind: 'dir',
      documents: files.size,
      problems,
      probes,
      level: levelOf(probes),
      warnings: [],
    };
  } finally {
    await preview?.close();
  }
}

/** Runs the probes against a served bundle; the page probes read `/` when it is the bundle's landing page, else `/api/`. */
async function probeSite(base: string, timeoutMs = 15_000): Promise<ProbeResult[]> {
  const fetch = createProbeFetch(base, timeoutMs);
  const root = await fetch('/');
  // The bundle's landing page names its Markdown twin; a store's home page (model (b)), or
  // the page preview shows there, does not, and the bundle's own page is /api/.
  const ownPage =
    root.status === 200 &&
    essenceOf(root) === 'text/html' &&
    /rel="?alternate"?;\s*type="?text\/markdown/.test(root.headers.get('link') ?? '');
  const page = ownPage ? '/' : '/api/';
  return runProbes(fetch, page);
}
