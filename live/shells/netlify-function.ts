/**
 * The Netlify shell, bundled into `<publish>/.netlify-functions/agent-catalog-live.mjs` (a
 * Functions v2 function; the generator prepends its `export const config = { path }`
 * with the live paths, so Netlify routes only those here). The core reads the published
 * index and catalog over HTTP from the site itself: a function in production runs without
 * the publish directory beside it (only `included_files` would bring files, and only with
 * a netlify.toml at the merchant's base directory), while a fetch of the site's own static
 * file works the same under `netlify dev --offline` and in production, and is answered by
 * the CDN. `netlify.toml`'s `[functions] directory` names the folder.
 */
import {
  createContextCache,
  createHookRuntime,
  type EnvReader,
  type HookRuntime,
  handleLiveRequest,
  SERVERLESS_POLICY,
} from './core.js';
import { hostFileNotFound, isHostFilePath } from './host-files.js';
import { isTrustedHost, misdirected } from './trusted-host.js';

/** `{site_url}`'s origin: a `const` the generator writes after `config` in the emitted function. */
declare const AGENT_CATALOG_SITE_ORIGIN: string | undefined;
const siteOrigin = typeof AGENT_CATALOG_SITE_ORIGIN === 'string' ? AGENT_CATALOG_SITE_ORIGIN : undefined;

const contextFor = createContextCache();

/** Netlify's context: `waitUntil` keeps the function running after the answer. */
export interface NetlifyContext {
  waitUntil?(promise: Promise<unknown>): void;
}

/**
 * The site's environment variables: `Netlify.env` in Functions, `process.env` as the
 * fallback Netlify documents for Node functions (read through `globalThis`, so the shell
 * still bundles for a web-standard platform).
 */
const readEnv: EnvReader = (name) => {
  const scope = globalThis as {
    Netlify?: { env?: { get(name: string): string | undefined } };
    process?: { env?: Record<string, string | undefined> };
  };
  return scope.Netlify?.env?.get(name) ?? scope.process?.env?.[name];
};

/** One receiver state per warm instance. */
let hooks: { runtime: HookRuntime | undefined } | undefined;

/** One of the site's own files, or undefined when it is missing or cannot be fetched (never a throw). */
async function readOwnFile<T>(
  origin: string,
  path: string,
  read: (response: Response) => Promise<T>,
): Promise<T | undefined> {
  try {
    const response = await fetch(new URL(path, origin), { redirect: 'error' });
    return response.ok ? await read(response) : undefined;
  } catch {
    return undefined;
  }
}

/** One of the site's own files as a stream (a parted document's part), or undefined. */
async function openOwnFile(origin: string, path: string): Promise<ReadableStream<Uint8Array> | undefined> {
  try {
    const response = await fetch(new URL(path, origin), { redirect: 'error' });
    return response.ok ? (response.body ?? undefined) : undefined;
  } catch {
    return undefined;
  }
}

export default async (request: Request, netlify?: NetlifyContext): Promise<Response> => {
  const url = new URL(request.url);
  if (isHostFilePath(url.pathname)) return hostFileNotFound();
  // The files are fetched from the origin the request names: never from a host not the site's.
  if (!isTrustedHost(url, siteOrigin)) return misdirected(siteOrigin);
  const context = await contextFor({
    readAsset: (path) => readOwnFile(url.origin, path, (response) => response.text()),
    readAssetBytes: (path) =>
      readOwnFile(url.origin, path, async (response) => new Uint8Array(await response.arrayBuffer())),
  });
  // A function cannot fall through to the static files: an HTML page's HTML form is
  // fetched from the CDN by its file path, which no function claims.
  const fetchStatic = (path: string) => fetch(new URL(`/${path}`, url.origin), { redirect: 'manual' });
  hooks ??= { runtime: createHookRuntime(readEnv, { policy: SERVERLESS_POLICY }) };
  const waitUntil = netlify?.waitUntil
    ? (promise: Promise<unknown>) => netlify.waitUntil?.(promise)
    : undefined;
  const openAsset = (path: string) => openOwnFile(url.origin, path);
  const live = context && { ...context, fetchStatic, openAsset, hooks: hooks.runtime, waitUntil };
  const answer = live && (await handleLiveRequest(request, live));
  // Only the live paths are routed here; one the core does not claim is a real 404.
  return answer ?? siteNotFound(fetchStatic);
};

/**
 * A routed path the core does not claim (a product page no product has) answers as a
 * missing file does on Netlify: the site's `404.html` when it has one, else plain text.
 */
async function siteNotFound(fetchStatic: (path: string) => Promise<Response>): Promise<Response> {
  const page = await fetchStatic('404.html').catch(() => undefined);
  if (page?.status !== 200) return hostFileNotFound();
  return new Response(page.body, {
    status: 404,
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
  });
}
