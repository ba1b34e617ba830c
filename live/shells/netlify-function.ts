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
import { createContextCache, handleLiveRequest } from './core.js';
import { hostFileNotFound, isHostFilePath } from './host-files.js';
import { isTrustedHost, misdirected } from './trusted-host.js';

/** `{site_url}`'s origin: a `const` the generator writes after `config` in the emitted function. */
declare const AGENT_CATALOG_SITE_ORIGIN: string | undefined;
const siteOrigin = typeof AGENT_CATALOG_SITE_ORIGIN === 'string' ? AGENT_CATALOG_SITE_ORIGIN : undefined;

const contextFor = createContextCache();

/** One of the site's own files, or undefined when it is missing or cannot be fetched (never a throw). */
async function readOwnFile(origin: string, path: string): Promise<string | undefined> {
  try {
    const response = await fetch(new URL(path, origin), { redirect: 'error' });
    return response.ok ? await response.text() : undefined;
  } catch {
    return undefined;
  }
}

export default async (request: Request): Promise<Response> => {
  const url = new URL(request.url);
  if (isHostFilePath(url.pathname)) return hostFileNotFound();
  // The files are fetched from the origin the request names: never from a host not the site's.
  if (!isTrustedHost(url, siteOrigin)) return misdirected(siteOrigin);
  const context = await contextFor((path) => readOwnFile(url.origin, path));
  // A function cannot fall through to the static files: an HTML page's HTML form is
  // fetched from the CDN by its file path, which no function claims.
  const fetchStatic = (path: string) => fetch(new URL(`/${path}`, url.origin), { redirect: 'manual' });
  const answer = context && (await handleLiveRequest(request, { ...context, fetchStatic }));
  // Only the live paths are routed here; one the core does not claim is a real 404.
  return answer ?? hostFileNotFound();
};
