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

const contextFor = createContextCache();

export default async (request: Request): Promise<Response> => {
  const url = new URL(request.url);
  if (isHostFilePath(url.pathname)) return hostFileNotFound();
  const context = await contextFor(async (path) => {
    const response = await fetch(new URL(path, url.origin), { redirect: 'error' });
    return response.ok ? response.text() : undefined;
  });
  // A function cannot fall through to the static files: an HTML page's HTML form is
  // fetched from the CDN by its file path, which no function claims.
  const fetchStatic = (path: string) => fetch(new URL(`/${path}`, url.origin), { redirect: 'manual' });
  const answer = context && (await handleLiveRequest(request, { ...context, fetchStatic }));
  // Only the live paths are routed here; one the core does not claim is a real 404.
  return answer ?? hostFileNotFound();
};
