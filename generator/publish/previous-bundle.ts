/**
 * The last good bundle in the output directory, as the build compares against it: its
 * files' digests (for "nothing changed", and so publishing keeps unchanged files), its catalog's product count (the shrink guard), its
 * `generated` time and its products' prices and availability (the summary diff). A
 * non-empty directory that holds no catalog is refused, so a mistyped `--out` (say, the
 * project root) is never swapped away.
 */
import { documentOfManifest, isPartsManifestPath, partsManifestPath } from '../../live/bundle-parts.js';
import type { ResolvedConfig } from '../config.js';
import { catalogPaths } from '../emit/catalog.js';
import { CatalogError } from '../errors.js';
import type { Logger } from '../logger.js';
import { productFactsOf } from '../summary/diff.js';
import type { BundleDigests, KnownFile } from './file-digest.js';
import { readBundleDigests } from './read-bundle.js';
import { readDocument } from './read-parted.js';

export interface PreviousBundle {
  /** Every file's digest, by bundle-relative path. */
  digests: BundleDigests;
  /** Product count of its catalog (0 when the catalog could not be read). */
  count: number;
  generated?: string;
  products: ReturnType<typeof productFactsOf>;
}

export interface PreviousWarning {
  code: 'PREVIOUS_UNREADABLE';
  message: string;
}

function findCatalogPath(files: BundleDigests, config: ResolvedConfig): string | undefined {
  const expected = `${catalogPaths(config.base_url).catalogPath.slice(1)}.json`;
  // A large catalog is stored in parts: its manifest stands for it.
  const stored = (path: string) => files.has(path) || files.has(partsManifestPath(path));
  if (stored(expected)) return expected;
  // The base URL may have changed since the last build; its catalog is still the last good one.
  const isCatalog = (path: string) => path === 'agent-catalog.json' || path.endsWith('/agent-catalog.json');
  const whole = [...files.keys()].find(isCatalog);
  if (whole !== undefined) return whole;
  return [...files.keys()].filter(isPartsManifestPath).map(documentOfManifest).find(isCatalog);
}

function parseCatalog(bytes: Buffer): {
  count: number;
  generated?: string;
  products: PreviousBundle['products'];
} {
  const data: unknown = JSON.parse(bytes.toString('utf8'));
  const record = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
  const products = productFactsOf(data);
  return {
    count: Array.isArray(record.products) ? record.products.length : 0,
    ...(typeof record.generated === 'string' ? { generated: record.generated } : {}),
    products,
  };
}

export async function readPreviousBundle(
  out: string,
  config: ResolvedConfig,
  logger: Logger,
  warnings: { push(warning: PreviousWarning): unknown },
  known?: ReadonlyMap<string, KnownFile>,
): Promise<PreviousBundle | undefined> {
  const digests = await readBundleDigests(out, known);
  if (digests === undefined || digests.size === 0) return undefined;
  const catalogPath = findCatalogPath(digests, config);
  if (catalogPath === undefined) {
    throw new CatalogError(
      'PUBLISH_FAILED',
      `${out} is not empty and holds no agent catalog; refusing to replace it (choose another --out)`,
      { dir: out },
    );
  }
  try {
    return { digests, ...parseCatalog(await readDocument(out, catalogPath, digests)) };
  } catch (error) {
    const message = `the last bundle's ${catalogPath} is not valid JSON; no shrink guard or diff this time`;
    logger.debug(`${message}: ${error instanceof Error ? error.message : String(error)}`);
    warnings.push({ code: 'PREVIOUS_UNREADABLE', message });
    return { digests, count: 0, products: [] };
  }
}
