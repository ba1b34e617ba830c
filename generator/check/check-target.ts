/**
 * `agent-catalog check` without the command line: reads a bundle from a directory or a
 * live site and runs the same gate the build runs before it publishes. What only a live
 * site can get wrong (statuses, headers) is reported beside the gate's own problems.
 */
import { resolve } from 'node:path';
import { CatalogError } from '../errors.js';
import { type Problem, validateBundle } from '../validate/index.js';
import { readBundleDir } from './read-dir.js';
import { readBundleSite } from './read-site.js';

export interface CheckResult {
  target: string;
  kind: 'dir' | 'site';
  /** How many documents were read. */
  documents: number;
  problems: Problem[];
}

export interface CheckOptions {
  /** Relative directories resolve against this. */
  cwd: string;
  timeoutMs?: number;
  /** Judge a site target as if it were served at this site_url (`--as`). */
  as?: string;
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
    return { target, kind: 'site', documents: site.files.size, problems };
  }
  if (options.as !== undefined) {
    throw new CatalogError('FLAG_INVALID', `--as applies to a site URL, not to the directory ${target}`, {
      target,
    });
  }
  const files = await readBundleDir(resolve(options.cwd, target));
  return { target, kind: 'dir', documents: files.size, problems: validateBundle(files) };
}
