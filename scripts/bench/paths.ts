/**
 * Where things are when the benchmarks run from lib/scripts/bench/: the repository root
 * (the sample merchant and its config), the compiled CLIs they spawn, and a fresh
 * scratch directory under the system temp dir for each run.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = fileURLToPath(new URL('.', import.meta.url));

/** lib/scripts/bench → the repository root. */
export const REPO_ROOT = resolve(HERE, '..', '..', '..');
export const CATALOG_CLI = join(REPO_ROOT, 'lib', 'generator', 'cli.js');
export const AUTH_CLI = join(REPO_ROOT, 'lib', 'auth-server', 'cli.js');

/** A compiled script beside this one, e.g. `benchScript('baseline.js')`. */
export function benchScript(name: string): string {
  return join(HERE, name);
}

export function makeScratchDir(label: string): Promise<string> {
  return mkdtemp(join(tmpdir(), `agent-catalog-bench-${label}-`));
}
