/**
 * The plan, emit and validate stages as the build runs them against the last good bundle.
 * First the bundle is emitted with the last bundle's `generated` time: when every file comes
 * out with the digest it already has, nothing changed and nothing is written (the emission
 * stops at the first file that differs). Otherwise it is emitted with the build's time,
 * straight into a staging folder when the build writes (`openStagingSink`), so no more than
 * one document is in memory at a time, or kept in memory for `build({ write: false })`.
 * The gate then reads every document back, from memory or from staging.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { ShardCounts } from '../live/live-layout.js';
import type { Artifact } from './artifact.js';
import { compactArtifact, spillArtifact } from './compact-artifact.js';
import type { ResolvedConfig } from './config.js';
import { emitCatalog } from './emit/catalog.js';
import { storeDocument, wholeDocuments } from './emit/document-storage.js';
import { type ArtifactSink, DOCUMENT_EMITTERS, emitBundle } from './emit/index.js';
import { CatalogError } from './errors.js';
import { validateChanged } from './incremental-gate.js';
import type { Logger } from './logger.js';
import type { PartSizes } from './parts/cut-parts.js';
import { type BuildStage, planBuild } from './pipeline.js';
import type { Article, BuildPlan, PlannedProducts, ProductFragments, ValidatedProducts } from './plan.js';
import {
  type BundleDigests,
  compareWithDigests,
  digestArtifactText,
  digestOfArtifact,
  holdsArtifacts,
  matchesArtifacts,
  rememberSource,
  sourceOfDigest,
} from './publish/file-digest.js';
import type { PreviousBundle } from './publish/previous-bundle.js';
import { openStagingSink, type StagingSink } from './publish/staging-sink.js';
import { validateArtifacts } from './validate/index.js';

export interface EmitInput {
  config: ResolvedConfig;
  products: PlannedProducts;
  articles: Article[];
  now: Date;
  allowEmpty: boolean;
  /** The last bundle's shard counts (`countShards` of its files), kept while they fit. */
  previousShards?: Partial<ShardCounts>;
  partSizes?: PartSizes;
  /** The build cache's fragments of unchanged products, when the build writes. */
  fragments?: ProductFragments;
  /** Which products an earlier gate passed, and where to say this one passed (the build cache). */
  trust?: GateTrust;
  /**
   * True when the build cache knows a product changed since the last published build: the
   * catalog then differs, so the pass that looks for "nothing changed" is skipped.
   */
  productsChanged?: boolean;
}

/** What the gate may take as checked, and whom it tells when it passed (the build cache). */
export interface GateTrust {
  validatedProducts(products: PlannedProducts): ValidatedProducts | undefined;
  gatePassed(): void;
}

export interface Emitted {
  plan: BuildPlan;
  artifacts: Artifact[];
  changed: boolean;
  /** Where the emitted files are on disk: the staging folder, or the bundle when nothing changed. */
  dir?: string;
  /** The staging folder to commit (changed, written builds only). */
  sink?: StagingSink;
}

export interface EmitTarget {
  write: boolean;
  out: string;
  logger: Logger;
}

/**
 * The gate: every document checked, or, when an earlier gate passed most products with
 * the digests they have now, the changed products in full and the bundle around them.
 */
function assertValid(
  plan: BuildPlan,
  artifacts: readonly Artifact[],
  trust: GateTrust | undefined,
  unchangedFiles: ReadonlySet<string>,
): void {
  const validated = trust?.validatedProducts(plan.products);
  const problems =
    validated === undefined || validated.size === 0
      ? validateArtifacts(artifacts)
      : validateChanged(plan, artifacts, validated, unchangedFiles);
  if (problems.length === 0) return;
  const documents = [...new Set(problems.map((problem) => problem.path))].sort();
  throw new CatalogError(
    'OUTPUT_INVALID',
    `refusing to publish: invalid ${documents.join(', ')}: ${problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`,
    { documents, problems },
  );
}

/** The files of the result with the bytes the last bundle had: every file when nothing changed. */
function unchangedFilesOf(result: Emitted, previous: PreviousBundle | undefined): ReadonlySet<string> {
  if (!result.changed) return new Set(result.artifacts.map((artifact) => artifact.path));
  const digests = result.sink?.digests;
  if (digests === undefined || previous === undefined) return new Set();
  return new Set(
    [...digests].filter(([path, digest]) => previous.digests.get(path) === digest).map(([path]) => path),
  );
}

/** Stops an emission compared with the current bundle at its first different file. */
class BundleDiffers extends Error {}

/** A sink that checks each file against the bundle at `out` and reads it from there. */
function compareWithBundle(out: string, digests: BundleDigests): ArtifactSink {
  return (artifact) => {
    // A compressed file is compared by the text it was made from when the cache knows it.
    const source = artifact.encoding === 'gzip' ? sourceOfDigest(digests, artifact.path) : undefined;
    const same =
      source !== undefined
        ? digestArtifactText(artifact) === source
        : digests.get(artifact.path) === digestOfArtifact(artifact);
    if (!same) throw new BundleDiffers();
    // Learnt for the next build: the text this compressed file was made from.
    if (artifact.encoding === 'gzip' && source === undefined) {
      rememberSource(digests, artifact.path, digestArtifactText(artifact));
    }
    const file = join(out, artifact.path);
    return spillArtifact(
      artifact,
      artifact.encoding === 'gzip' ? () => gunzipSync(readFileSync(file)) : () => readFileSync(file),
    );
  };
}

function emitUnchanged(
  plan: BuildPlan,
  previous: PreviousBundle,
  target: EmitTarget,
): Artifact[] | undefined {
  // A changed bundle nearly always has a changed catalog: comparing that one document
  // first spares emitting the whole bundle twice on every build that changes something.
  const catalogFiles = emitCatalog(plan).flatMap(
    (artifact) => storeDocument(plan, compactArtifact(artifact), (file) => file).files,
  );
  if (!holdsArtifacts(previous.digests, catalogFiles)) return undefined;
  if (!target.write) {
    const artifacts = emitBundle(plan);
    return matchesArtifacts(previous.digests, artifacts) ? artifacts : undefined;
  }
  try {
    const artifacts = emitBundle(plan, DOCUMENT_EMITTERS, compareWithBundle(target.out, previous.digests));
    return artifacts.length === previous.digests.size ? artifacts : undefined;
  } catch (error) {
    if (error instanceof BundleDiffers) return undefined;
    throw error;
  }
}

/** True when the staged files are exactly the remembered bundle's files. */
function sameAsRemembered(sink: StagingSink, remembered: BundleDigests): boolean {
  const report = compareWithDigests(sink.digests, sink.sources, remembered);
  return report.written === 0 && report.removed === 0;
}

/**
 * Against a bundle the build cache remembers but `out` does not hold: the bundle is written
 * whole with the remembered `generated` time (there is nothing to link from), and nothing
 * changed when every file comes out as the remembered one. Undefined when one differs.
 */
async function emitRemembered(
  plan: BuildPlan,
  previous: PreviousBundle,
  target: EmitTarget,
): Promise<Emitted | undefined> {
  if (!target.write) {
    const artifacts = emitBundle(plan);
    return matchesArtifacts(previous.digests, artifacts) ? { plan, artifacts, changed: false } : undefined;
  }
  // As in emitUnchanged: a changed catalog is found before the whole bundle is written.
  const catalogFiles = emitCatalog(plan).flatMap(
    (artifact) => storeDocument(plan, compactArtifact(artifact), (file) => file).files,
  );
  if (!holdsArtifacts(previous.digests, catalogFiles)) return undefined;
  const emitted = await emitChanged(plan, undefined, target);
  if (emitted.sink !== undefined && sameAsRemembered(emitted.sink, previous.digests))
    return { ...emitted, changed: false };
  await emitted.sink?.discard();
  return undefined;
}

async function emitChanged(
  plan: BuildPlan,
  previous: PreviousBundle | undefined,
  target: EmitTarget,
): Promise<Emitted> {
  if (!target.write) return { plan, artifacts: emitBundle(plan), changed: true };
  const sink = await openStagingSink({
    target: target.out,
    logger: target.logger,
    ...(previous ? { previous: previous.digests } : {}),
  });
  try {
    return {
      plan,
      artifacts: emitBundle(plan, DOCUMENT_EMITTERS, sink.accept),
      changed: true,
      dir: sink.dir,
      sink,
    };
  } catch (error) {
    await sink.discard();
    throw error;
  }
}

export async function emitAgainst(
  input: EmitInput,
  previous: PreviousBundle | undefined,
  target: EmitTarget,
  onStage: (stage: BuildStage) => void,
): Promise<Emitted> {
  onStage('plan');
  let result: Emitted | undefined;
  if (previous?.generated !== undefined && input.productsChanged !== true) {
    const plan = planBuild({ ...input, generated: previous.generated });
    onStage('emit');
    if (previous.remembered) result = await emitRemembered(plan, previous, target);
    else {
      const artifacts = emitUnchanged(plan, previous, target);
      if (artifacts)
        result = { plan, artifacts, changed: false, ...(target.write ? { dir: target.out } : {}) };
    }
  }
  if (!result) {
    const plan = planBuild({ ...input, generated: input.now.toISOString() });
    onStage('emit');
    // A remembered bundle has no file to link from: written whole.
    result = await emitChanged(plan, previous?.remembered ? undefined : previous, target);
  }
  onStage('validate');
  try {
    // The gate reads each document whole, a parted one joined from its parts.
    assertValid(
      result.plan,
      wholeDocuments(result.artifacts),
      input.trust,
      unchangedFilesOf(result, previous),
    );
    input.trust?.gatePassed();
  } catch (error) {
    await result.sink?.discard();
    throw error;
  }
  // Validated: the values the documents were serialised from (the feed's and sitemap's
  // trees) have done their work, so they do not stay beside the bodies while publishing.
  for (const artifact of wholeDocuments(result.artifacts)) delete artifact.serialisedFrom;
  return result;
}
