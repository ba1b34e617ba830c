/**
 * Every emitter of the bundle, in one list. Each document emitter is a pure function
 * from the build plan to artifacts; the hosting rules are derived last from the
 * documents themselves, so every path, media type and header comes from one place.
 * `emitBundle` refuses two artifacts at one file path or one URL path.
 */
import type { Artifact } from '../artifact.js';
import { artifactUrlPath } from '../artifact.js';
import { compactArtifact } from '../compact-artifact.js';
import { CatalogError } from '../errors.js';
import type { BuildPlan } from '../plan.js';
import { emitAcpFeed } from './agent-feeds/acp-feed.js';
import { emitOpenAiFeed } from './agent-feeds/openai-feed.js';
import { emitAgentSkills } from './agent-skills.js';
import { emitAiCatalog } from './ai-catalog.js';
import { emitAuthMd } from './auth-md.js';
import { emitCatalog } from './catalog.js';
import { emitDocs } from './docs.js';
import { emitPartsIndex, type PartedSummary, storeDocument, wholeDocuments } from './document-storage.js';
import { emitFeed } from './feed.js';
import { emitHostingRules } from './hosting.js';
import { emitKnowledgeBase } from './kb.js';
import { forgetKnowledgeBaseSections } from './kb-markdown.js';
import { emitLanding } from './landing.js';
import { emitLiveIndex } from './live-index.js';
import { emitLiveShells } from './live-shells.js';
import { emitLlms } from './llms.js';
import { emitMarkdownTwins } from './markdown-twins.js';
import { emitMcpServerCards } from './mcp-server-card.js';
import { emitOpenApi } from './openapi.js';
import { emitProductPages } from './product-page-shards.js';
import { emitRobots } from './robots.js';
import { emitSitemap } from './sitemap.js';
import { emitWebMcp } from './webmcp.js';
import { emitWellKnown } from './well-known.js';
import { emitUcpProfile } from './well-known-ucp.js';

/** An emitter may yield its files one at a time, so each is written before the next is made. */
export type Emitter = (plan: BuildPlan) => Iterable<Artifact>;

export const DOCUMENT_EMITTERS: readonly Emitter[] = [
  emitCatalog,
  emitOpenApi,
  emitDocs,
  emitKnowledgeBase,
  emitFeed,
  emitOpenAiFeed,
  emitAcpFeed,
  emitSitemap,
  emitLlms,
  emitRobots,
  emitWellKnown,
  emitLanding,
  emitAgentSkills,
  emitMcpServerCards,
  emitAiCatalog,
  emitAuthMd,
  emitMarkdownTwins,
  emitProductPages,
  emitWebMcp,
  emitLiveIndex,
  emitUcpProfile,
];

/**
 * Where each emitted artifact goes as soon as it is emitted: kept as it is (the default, for
 * `build({ write: false })` and tests), or written out and returned spilled (the build's
 * staging sink), so the bundle is never held in memory at once.
 */
export type ArtifactSink = (artifact: Artifact) => Artifact;

const keepInMemory: ArtifactSink = (artifact) => artifact;

export function emitBundle(
  plan: BuildPlan,
  emitters: readonly Emitter[] = DOCUMENT_EMITTERS,
  sink: ArtifactSink = keepInMemory,
): Artifact[] {
  // Each emitter's texts become bytes as soon as it returns: held as strings, a large
  // catalog's bundle would not fit in Node's default heap (compact-artifact.ts).
  const settle = (artifact: Artifact) => sink(compactArtifact(artifact));
  const documents: Artifact[] = [];
  const parted: PartedSummary[] = [];
  const storedParts = new Map<string, Artifact>();
  for (const emit of emitters) {
    for (const artifact of emit(plan)) {
      // A document too large for one file is stored as parts the live handler serves whole.
      const stored = storeDocument(plan, compactArtifact(artifact), sink, storedParts);
      documents.push(...stored.files);
      if (stored.parted) parted.push(stored.parted);
    }
  }
  forgetKnowledgeBaseSections(plan);
  const partedPaths = parted.flatMap((item) => item.urlPaths);
  // The live handler's files come after the rules: they are code for the hosts, not documents to serve.
  const artifacts = [
    ...documents,
    ...emitPartsIndex(parted).map(settle),
    ...emitHostingRules(plan, wholeDocuments(documents), new Set(partedPaths)).map(settle),
    ...emitLiveShells(plan, partedPaths).map(settle),
  ];
  assertNoCollisions(artifacts);
  return artifacts.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function assertNoCollisions(artifacts: readonly Artifact[]): void {
  const seenFiles = new Set<string>();
  const seenUrls = new Set<string>();
  for (const artifact of artifacts) {
    const url = artifactUrlPath(artifact);
    if (seenFiles.has(artifact.path) || seenUrls.has(url)) {
      throw new CatalogError(
        'OUTPUT_INVALID',
        `two documents would be published at ${artifact.path} (${url})`,
        {
          path: artifact.path,
        },
      );
    }
    seenFiles.add(artifact.path);
    seenUrls.add(url);
  }
}
