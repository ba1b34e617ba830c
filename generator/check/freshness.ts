/**
 * How old a live site's data is: the health document's `generated` (else the catalog's),
 * which says when the published data was taken from the store. `check <url>` warns when it
 * is older than twice the catalog's cache duration (spec part 8: 15 minutes), the sign of
 * a rebuild that has stopped running (a dropped schedule, failing webhooks). A warning,
 * not a problem: a rebuild that finds nothing changed publishes nothing and keeps the
 * earlier time (so an unchanged rebuild writes nothing), and a store that has not changed
 * in that time shows the same age.
 */
import { CATALOG_CACHE_CONTROL } from '../emit/hosting.js';
import { isRecord, locateDocuments } from '../validate/bundle-layout.js';
import { catalogEnvelopeOf } from '../validate/listed-records.js';
import type { BundleFiles } from '../validate/problem.js';

export interface Freshness {
  generated: string;
  ageSeconds: number;
  /** Twice the catalog's cache duration. */
  limitSeconds: number;
  stale: boolean;
}

/** The catalog's `max-age`, as the bundle's hosting rules publish it. */
export const CATALOG_CACHE_SECONDS = Number(/max-age=(\d+)/.exec(CATALOG_CACHE_CONTROL)?.[1] ?? '900');

function generatedIn(value: unknown): string | undefined {
  return isRecord(value) && typeof value.generated === 'string' ? value.generated : undefined;
}

function generatedOf(files: BundleFiles, file: string | undefined): string | undefined {
  const text = file === undefined ? undefined : files.get(file);
  if (text === undefined) return undefined;
  try {
    return generatedIn(JSON.parse(text));
  } catch {
    return undefined;
  }
}

/** The catalog's `generated`, read from its envelope: the products are walked past, never kept. */
function catalogGenerated(files: BundleFiles, file: string | undefined): string | undefined {
  const envelope = file === undefined ? undefined : catalogEnvelopeOf(files, file);
  return envelope?.ok === true ? generatedIn(envelope.value) : undefined;
}

export function judgeFreshness(files: BundleFiles, now: number): Freshness | undefined {
  const { healthFile, catalogFile } = locateDocuments(files);
  const generated = generatedOf(files, healthFile) ?? catalogGenerated(files, catalogFile);
  const time = generated === undefined ? Number.NaN : Date.parse(generated);
  if (generated === undefined || Number.isNaN(time)) return undefined;
  const ageSeconds = Math.max(0, Math.round((now - time) / 1000));
  const limitSeconds = 2 * CATALOG_CACHE_SECONDS;
  return { generated, ageSeconds, limitSeconds, stale: ageSeconds > limitSeconds };
}

function formatAge(seconds: number): string {
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 2 * 3600) return `${Math.round(seconds / 60)} min`;
  if (seconds < 2 * 86_400) return `${Math.round(seconds / 3600)} h`;
  return `${Math.round(seconds / 86_400)} days`;
}

export function describeStaleness(freshness: Freshness): string {
  return `the data was taken from the store ${formatAge(freshness.ageSeconds)} ago (generated ${freshness.generated}), more than twice the catalog's ${CATALOG_CACHE_SECONDS / 60}-minute cache: check that the rebuild runs (schedule, webhooks); a store that has not changed since also keeps this time`;
}
