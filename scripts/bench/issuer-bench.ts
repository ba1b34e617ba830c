/** placeholder */
import type { BenchOptions } from './options.js';
import type { BenchRow } from './results.js';

export async function benchIssuers(
  _options: BenchOptions,
  _log: (line: string) => void,
): Promise<BenchRow[]> {
  return [];
}
