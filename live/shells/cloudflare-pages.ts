/**
 * The Cloudflare Pages shell, bundled into the bundle's `_worker.js` (advanced mode): the
 * live paths `_routes.json` sends here go to the core; anything else goes on to the static
 * assets, where `_headers` and `_redirects` apply as for every other file. The core reads
 * the published index and catalog through the same `ASSETS` binding.
 */
import { createLiveContext, handleLiveRequest, type LiveContext } from './core.js';
import { hostFileNotFound, isHostFilePath } from './host-files.js';

/** The one binding Pages gives an advanced-mode worker: its own static assets. */
export interface PagesEnv {
  ASSETS: { fetch(request: Request | string): Promise<Response> };
}

// One context per isolate, so whatever the core caches (the parsed index) outlives a request.
let context: LiveContext | undefined;

function contextFor(env: PagesEnv, origin: string): LiveContext {
  context ??= createLiveContext(async (path) => {
    const response = await env.ASSETS.fetch(new URL(path, origin).href);
    return response.ok ? response.text() : undefined;
  });
  return context;
}

export default {
  async fetch(request: Request, env: PagesEnv): Promise<Response> {
    const url = new URL(request.url);
    if (isHostFilePath(url.pathname)) return hostFileNotFound();
    const answer = await handleLiveRequest(request, contextFor(env, url.origin));
    return answer ?? env.ASSETS.fetch(request);
  },
};
