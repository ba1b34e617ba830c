/**
 * What the engine tests share: building a bundle with the real CLI, serving one directory
 * with `preview`, `wrangler pages dev` and `netlify dev --offline` at once, and asking the
 * three for a path so their answers (status, body digest, the compared headers) can be
 * compared with `toEqual`. A local engine's known differences from its production host are
 * listed here by header name, with the reason, and left out of the comparison.
 */
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseHeadersFile, parseRedirectsFile } from '../../generator/emit/hosting-rules-format.js';
import { startPreviewServer } from '../../generator/preview/server.js';
import { makeShopifyProducts } from '../fixtures/upstream/make-products.js';
import { runCli } from '../generator/cli/run-cli.js';
import { type RunningEngine, startNetlify, startWrangler } from './engines.js';

/** Headers compared across the three servers. */
export const COMPARED = [
  'content-type',
  'access-control-allow-origin',
  'access-control-expose-headers',
  'cache-control',
  'link',
  'x-content-type-options',
  'content-usage',
] as const;
type Compared = (typeof COMPARED)[number];

/**
 * Where a local engine is known to differ from its production host, by header name. netlify
 * dev proxies to a static server whose own Content-Type and Cache-Control replace the ones
 * `_headers` sets (netlify/cli#990, "Source headers overwriting user configured headers");
 * Netlify's production edge applies `_headers` over them. Everything else must match.
 */
const KNOWN_DIFFERENCES: Record<RunningEngine['name'], Partial<Record<Compared, string>>> = {
  netlify: {
    'content-type': 'netlify dev: the static server sets Content-Type (netlify/cli#990)',
    'cache-control': 'netlify dev: the static server sets Cache-Control (netlify/cli#990)',
  },
  wrangler: {},
};

export interface Answer {
  status: number;
  bodySha256: string;
  bodyLength: number;
  body: string;
  headers: Partial<Record<Compared, string | null>>;
}

export async function ask(base: string, path: string, method: 'GET' | 'HEAD'): Promise<Answer> {
  const res = await fetch(`${base}${path}`, {
    method,
    redirect: 'manual',
    signal: AbortSignal.timeout(20_000),
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  return {
    status: res.status,
    bodySha256: createHash('sha256').update(bytes).digest('hex'),
    bodyLength: bytes.length,
    body: bytes.toString('utf8'),
    headers: pickCompared(res.headers),
  };
}

/** The compared headers of a response. */
export function pickCompared(from: Headers): Answer['headers'] {
  const headers: Answer['headers'] = {};
  for (const name of COMPARED) headers[name] = from.get(name);
  return headers;
}

/** The answer with the engine's known differences left out, so `toEqual` names any other. */
export function comparable(answer: Answer, engine: RunningEngine['name'] | 'preview'): Omit<Answer, 'body'> {
  const { body: _body, ...rest } = answer;
  if (engine === 'preview') return rest;
  const headers = { ...rest.headers };
  for (const name of Object.keys(KNOWN_DIFFERENCES[engine]) as Compared[]) delete headers[name];
  return { ...rest, headers };
}

export interface Served {
  dir: string;
  paths: string[];
  preview: { url: string; close(): Promise<void> };
  engines: RunningEngine[];
}

/**
 * Serves `dir` with `preview`, `wrangler pages dev` and `netlify dev --offline`; Netlify may
 * be given a bundle of its own (`netlifyDir`: one built with `build.hosts: ["netlify"]`).
 */
export async function serveEverywhere(dir: string, paths: string[], netlifyDir = dir): Promise<Served> {
  const preview = await startPreviewServer({ dir, port: 0 });
  const engines = await Promise.allSettled([startWrangler(dir), startNetlify(netlifyDir)]);
  const started = engines.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const failed = engines.find((result) => result.status === 'rejected');
  if (failed !== undefined) {
    await Promise.all([preview.close(), ...started.map((engine) => engine.stop())]);
    throw failed.reason;
  }
  return { dir, paths, preview, engines: started };
}

export async function stopAll(served: Served | undefined): Promise<void> {
  if (served === undefined) return;
  await Promise.all([served.preview.close(), ...served.engines.map((engine) => engine.stop())]);
}

export function engineNamed(served: Served, name: RunningEngine['name']): RunningEngine {
  const engine = served.engines.find((item) => item.name === name);
  if (engine === undefined) throw new Error(`${name} is not running`);
  return engine;
}

/** Builds `config` into `root/name` with the real CLI; throws with its stderr when it fails. */
export async function buildWith(root: string, name: string, config: string): Promise<string> {
  const out = join(root, name);
  const run = await runCli(['build', '--quiet', '--config', config, '--out', out], {
    cwd: root,
    limitMs: 60_000,
  });
  if (run.code !== 0) throw new Error(`build ${name} exited ${run.code}: ${run.stderr}`);
  return out;
}

const HOSTILE_MERCHANT = {
  name: 'Ünïcode "Quotes" & <Angle> Juice 果汁 🍊',
  slug: 'hostile',
  url: 'https://hostile-juice.example',
  contact: 'hello@hostile-juice.example',
  currency: 'USD',
  ships_to: ['US'],
};

/**
 * The hostile bundle: 300 Shopify-shaped products, a merchant name with quotes, `&`, `<>`,
 * non-Latin text and emoji, on its own host with the catalog under `/api`.
 */
export async function buildHostileBundle(root: string): Promise<string> {
  const upstream = join(root, 'products.json');
  await writeFile(upstream, JSON.stringify({ products: makeShopifyProducts(300) }));
  const config = join(root, 'hostile.config.json');
  await writeFile(
    config,
    JSON.stringify({
      merchant: HOSTILE_MERCHANT,
      site_url: 'https://agents.hostile-juice.example',
      base_url: 'https://agents.hostile-juice.example/api',
      auth_url: 'https://auth.hostile-juice.example',
      upstream: { format: 'shopify', source: upstream },
      agent_feeds: {
        openai: {
          enabled: true,
          seller_name: 'Hostile Juice',
          seller_url: HOSTILE_MERCHANT.url,
          return_policy: `${HOSTILE_MERCHANT.url}/returns`,
          store_country: 'US',
        },
        acp: { enabled: true },
      },
    }),
  );
  return buildWith(root, 'hostile', config);
}

/** How many rules each file holds, read with the project's parser. */
export function ruleCounts(
  headersText: string,
  redirectsText: string,
): { headers: number; redirects: number } {
  return {
    headers: parseHeadersFile(headersText).length,
    redirects: parseRedirectsFile(redirectsText).length,
  };
}
