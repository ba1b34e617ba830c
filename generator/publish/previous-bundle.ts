/**
 * The last good bundle in the output directory, as the build compares against it: its
 * files' digests (for "nothing changed", and so publishing keeps unchanged files) and its
 * catalog's facts (catalog-facts.ts: the shrink guard's count, the `generated` time, the
 * summary diff's prices and availability), kept by the build cache or read from the
 * catalog item by item. A non-empty directory that holds no catalog is refused, so a
 * mistyped `--out` (say, the project root) is never swapped away.
 *
 * With no bundle in the output directory, the build cache may still remember the last one
 * it published (each file's digest, and its catalog's facts): a CI job that keeps the cache
 * between runs but not the bundle (the regenerate workflow) compares with that one, so it
 * still says when nothing changed and still refuses a sharp shrink.
 */
import { join } from 'node:path';
import { documentOfManifest, isPartsManifestPath, partsManifestPath } from '../../live/bundle-parts.js';
import type { ResolvedConfig } from '../config.js';
import { catalogPaths } from '../emit/catalog.js';
import { CatalogError } from '../errors.js';
import type { Logger } from '../logger.js';
import {
  type CatalogFacts,
  decodeCatalogFacts,
  encodeCatalogFacts,
  readCatalogFacts,
} from './catalog-facts.js';
import { type BundleDigests, type KnownFile, rememberSource } from './file-digest.js';
import { readBundleDigests } from './read-bundle.js';
import { readDocumentChunks, readPartsManifest } from './read-parted.js';

export interface PreviousBundle extends CatalogFacts {
  /** Every file's digest, by bundle-relative path. */
  digests: BundleDigests;
  /** The key its catalog's facts were kept under in the build cache, when they came from there. */
  factsKey?: string;
  /**
   * True when its files are not in the output directory: the build cache remembers them
   * (digests and catalog facts only), so nothing of it can be linked or read back.
   */
  remembered?: true;
}

/** Where the facts of published catalogs are kept between builds (the build cache). */
export interface CatalogFactsStore {
  read(key: string): Buffer | undefined;
  keep(key: string, bytes: Buffer): void;
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

/**
 * The key a catalog's facts are kept under: its path and the digest of its file, or of its
 * parts manifest (which names every part by its digest).
 */
function catalogFactsKey(digests: BundleDigests, path: string): string | undefined {
  const digest = digests.get(path) ?? digests.get(partsManifestPath(path));
  return digest === undefined ? undefined : `${path}\u0000${digest}`;
}

/** True when the catalog is whole, or each of its parts is the file its manifest names. */
async function partsIntact(out: string, path: string, digests: BundleDigests): Promise<boolean> {
  if (digests.has(path)) return true;
  try {
    const manifest = await readPartsManifest(out, partsManifestPath(path));
    return manifest.parts.every((part) => part.path === undefined || digests.get(part.path) === part.sha256);
  } catch {
    return false;
  }
}

/** The facts kept for the catalog now at `path`, when the store has them and its files are the ones they were kept for. */
async function keptFacts(
  out: string,
  path: string,
  digests: BundleDigests,
  store: CatalogFactsStore | undefined,
): Promise<{ facts: CatalogFacts; key: string } | undefined> {
  const key = catalogFactsKey(digests, path);
  const bytes = key === undefined ? undefined : store?.read(key);
  const facts = bytes === undefined ? undefined : decodeCatalogFacts(bytes);
  if (key === undefined || facts === undefined || !(await partsIntact(out, path, digests))) return undefined;
  return { facts, key };
}

export async function readPreviousBundle(
  out: string,
  config: ResolvedConfig,
  logger: Logger,
  warnings: { push(warning: PreviousWarning): unknown },
  known?: ReadonlyMap<string, KnownFile>,
  factsStore?: CatalogFactsStore,
): Promise<PreviousBundle | undefined> {
  const digests = await readBundleDigests(out, known);
  if (digests === undefined || digests.size === 0) return rememberedBundle(known, config, factsStore);
  const catalogPath = findCatalogPath(digests, config);
  if (catalogPath === undefined) {
    throw new CatalogError(
      'PUBLISH_FAILED',
      `${out} is not empty and holds no agent catalog; refusing to replace it (choose another --out)`,
      { dir: out },
    );
  }
  const kept = await keptFacts(out, catalogPath, digests, factsStore);
  if (kept !== undefined) return { digests, ...kept.facts, factsKey: kept.key };
  try {
    const chunks = readDocumentChunks(out, catalogPath, digests);
    return { digests, ...(await readCatalogFacts(chunks, join(out, catalogPath))) };
  } catch (error) {
    const message = `the last bundle's ${catalogPath} is not valid JSON; no shrink guard or diff this time`;
    logger.debug(`${message}: ${error instanceof Error ? error.message : String(error)}`);
    warnings.push({ code: 'PREVIOUS_UNREADABLE', message });
    return { digests, count: 0, products: [] };
  }
}

/**
 * The bundle the build cache says it last left in `out`, when `out` no longer holds it: its
 * files' digests and its catalog's facts, or undefined when the cache does not know both.
 */
function rememberedBundle(
  known: ReadonlyMap<string, KnownFile> | undefined,
  config: ResolvedConfig,
  factsStore: CatalogFactsStore | undefined,
): PreviousBundle | undefined {
  if (known === undefined || known.size === 0) return undefined;
  const digests: BundleDigests = new Map();
  for (const [path, file] of known) {
    digests.set(path, file.digest);
    if (file.source !== undefined) rememberSource(digests, path, file.source);
  }
  const catalogPath = findCatalogPath(digests, config);
  const key = catalogPath === undefined ? undefined : catalogFactsKey(digests, catalogPath);
  const bytes = key === undefined ? undefined : factsStore?.read(key);
  const facts = bytes === undefined ? undefined : decodeCatalogFacts(bytes);
  if (key === undefined || facts === undefined) return undefined;
  return { digests, ...facts, factsKey: key, remembered: true };
}

/**
 * Keeps the facts of the catalog now in the bundle of `digests` (the one just published,
 * or kept because nothing changed) for the next build, unless they are kept already.
 */
export function keepCatalogFacts(
  store: CatalogFactsStore,
  digests: BundleDigests,
  config: ResolvedConfig,
  facts: CatalogFacts,
  keptKey?: string,
): void {
  const path = findCatalogPath(digests, config);
  const key = path === undefined ? undefined : catalogFactsKey(digests, path);
  if (key !== undefined && key !== keptKey) store.keep(key, encodeCatalogFacts(facts));
}
