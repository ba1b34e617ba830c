/**
 * A live bundle for in-process tests: the sample merchant built with `build({ write: false })`,
 * an asset reader over its artifacts, and an MCP SDK client whose `fetch` calls the live
 * core directly (optionally asking for an older protocol revision in `initialize`).
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Artifact } from '../../generator/artifact.js';
import { build } from '../../generator/build.js';
import { artifactBytes, bytesArtifact } from '../../generator/compact-artifact.js';
import { silentLogger } from '../../generator/logger.js';
import type { ProductRecord } from '../../generator/model.js';
import { handleLiveRequest } from '../../live/handle-live-request.js';
import { type AssetFiles, type LiveContext, readLiveSettings } from '../../live/live-context.js';
import type { LiveFile } from '../../live/live-files.js';
import type { BodyLimits } from '../../live/read-body.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface LiveBundle {
  artifacts: Artifact[];
  records: ProductRecord[];
  context: LiveContext;
  siteUrl: string;
  baseUrl: string;
}

export async function buildSampleLiveBundle(): Promise<LiveBundle> {
  const result = await build({
    configPath: 'catalog.config.json',
    out: join(ROOT, 'dist-never-written'),
    cwd: ROOT,
    write: false,
    logger: silentLogger,
    now: () => new Date('2026-11-21T12:00:00.000Z'),
  });
  return liveBundleOf(
    result.artifacts,
    [...result.plan.products].map((product) => product.record),
    result.plan.config,
  );
}

export async function liveBundleOf(
  artifacts: Artifact[],
  records: ProductRecord[],
  config: { site_url: string; base_url: string },
): Promise<LiveBundle> {
  const { readAsset, readAssetBytes } = assetFilesOf(artifacts);
  const settings = await readLiveSettings(readAsset);
  if (!settings) throw new Error('the bundle has no live manifest');
  return {
    artifacts,
    records,
    context: { settings, readAsset, readAssetBytes },
    siteUrl: config.site_url,
    baseUrl: config.base_url,
  };
}

/**
 * A shell's readers over these artifacts, or over a map of their bytes by path: text as
 * UTF-8, bytes as written (the search index's `.bin` files are not text).
 */
export function assetFilesOf(files: readonly Artifact[] | ReadonlyMap<string, Uint8Array>): AssetFiles {
  const bytes = Array.isArray(files)
    ? new Map(files.map((artifact) => [artifact.path, artifactBytes(artifact)]))
    : (files as ReadonlyMap<string, Uint8Array>);
  return {
    readAsset: async (path) => {
      const found = bytes.get(path);
      return found === undefined ? undefined : new TextDecoder().decode(found);
    },
    readAssetBytes: async (path) => bytes.get(path),
  };
}

/** The artifacts of `buildLiveFiles`' files: text as text, bytes kept as bytes (the search index's `.bin` files). */
export function liveFileArtifacts(files: readonly LiveFile[]): Artifact[] {
  return files.map(({ path, body }) =>
    typeof body === 'string'
      ? { path, body, mediaType: 'application/json' }
      : bytesArtifact({ path, mediaType: 'application/octet-stream' }, Buffer.from(body)),
  );
}

/** Calls the core as a shell would; a path the core does not claim is a 404 here. */
export function liveFetch(bundle: LiveBundle, limits?: BodyLimits) {
  return async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    return (
      (await handleLiveRequest(request, bundle.context, limits)) ?? new Response('not found', { status: 404 })
    );
  };
}

export async function connectClient(bundle: LiveBundle, protocolVersion?: string): Promise<Client> {
  const call = liveFetch(bundle);
  const transport = new StreamableHTTPClientTransport(new URL(`${bundle.baseUrl}/mcp`), {
    fetch: async (url, init) => {
      if (protocolVersion && typeof init?.body === 'string' && init.body.includes('"initialize"')) {
        const message = JSON.parse(init.body) as { params: { protocolVersion: string } };
        message.params.protocolVersion = protocolVersion;
        return call(url, { ...init, body: JSON.stringify(message) });
      }
      return call(url, init);
    },
  });
  const client = new Client({ name: 'live-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}
