/**
 * The build's settings that are not the merchant's config: what the caller passes
 * (`build()`'s options) or, failing that, what the environment sets for tests and
 * operators (`AGENT_CATALOG_PRODUCTS_ON_DISK`, `AGENT_CATALOG_PART_BYTES`), else the default.
 */
import { CatalogError } from './errors.js';
import { type PartSizes, partSizesAround } from './parts/cut-parts.js';

/** What these settings are read from: `BuildOptions`' fields of the same names. */
export interface BuildSettingsInput {
  env?: Readonly<Record<string, string | undefined>>;
  productsOnDiskFrom?: number;
  partSizes?: PartSizes;
}

/**
 * From this many products the records leave the heap (about 4 KB a product there). Measured
 * at 100,000 products on 2026-11-27 (BENCHMARKS.md, "the 100,000-product build on disk and
 * in the heap"), once the normaliser, the document pieces and the gate no longer held the
 * catalog: on disk the cold build peaked at 1.11 GB against 1.40 in the heap for the same
 * CPU, and a one-price rebuild at 0.73 GB against 0.97, for 67 s of CPU against 46 (each walk
 * parses the file again), still under a fifth of the cold build. At 10,000, once the heap
 * grew by half at a time (heap-policy.ts), the records were what the heap held at the peak:
 * on disk V8's heap peaked 50–60 MB lower and the process about 70 MB lower, for about 2 s
 * more CPU (BENCHMARKS.md, "the 10,000-product build near 300 MB"). Below this a store is
 * small enough that its records cost little and its rebuild keeps the heap's speed.
 */
export const PRODUCTS_ON_DISK_FROM = 5_000;

const PRODUCTS_ON_DISK_VARIABLE = 'AGENT_CATALOG_PRODUCTS_ON_DISK';

/**
 * A whole number the environment sets for a build (`variable`), at least `least`;
 * undefined when unset. A bad value stops the build naming the variable and the unit.
 */
function wholeNumberFromEnv(
  options: BuildSettingsInput,
  variable: string,
  least: number,
  unit: string,
): number | undefined {
  const text = options.env?.[variable];
  if (text === undefined || text === '') return undefined;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < least) {
    throw new CatalogError(
      'CONFIG_INVALID',
      `${variable} must be a whole number of ${unit}, ${least} or more: ${JSON.stringify(text)}`,
      { field: variable },
    );
  }
  return value;
}

export function productsOnDiskFrom(options: BuildSettingsInput): number {
  if (options.productsOnDiskFrom !== undefined) return options.productsOnDiskFrom;
  return wholeNumberFromEnv(options, PRODUCTS_ON_DISK_VARIABLE, 0, 'products') ?? PRODUCTS_ON_DISK_FROM;
}

const PART_BYTES_VARIABLE = 'AGENT_CATALOG_PART_BYTES';

export function partSizesOf(options: BuildSettingsInput): PartSizes | undefined {
  if (options.partSizes) return options.partSizes;
  const avg = wholeNumberFromEnv(options, PART_BYTES_VARIABLE, 64, 'bytes');
  return avg === undefined ? undefined : partSizesAround(avg);
}
