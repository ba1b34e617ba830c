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
import { silentLogger } from '../../generator/logger.js';
import type { ProductRecord } from '../../generator/model.js';
import { handleLiveRequest } from '../../live/handle-live-request.js';
import { type LiveContext, readLiveSettings } from '../../live/live-context.js';
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
    result.plan.products.map((product) => product.record),
    result.plan.config,
  );
}

export async function liveBundleOf(
  artifacts: Artifact[],
  records: ProductRecord[],
  config: { site_url: string; base_url: string },
): Promise<LiveBundle> {
  const files = new Map(artifacts.map((artifact) => [artifact.path, artifact.body]));
  const readAsset = async (path: string): Promise<string | undefined> => files.get(path);
  const settings = await readLiveSettings(readAsset);
  if (!settings) throw new Error('the bundle has no live manifest');
  return {
    artifacts,
    records,
    context: { settings, readAsset },
    siteUrl: config.site_url,
    baseUrl: config.base_url,
  };
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
