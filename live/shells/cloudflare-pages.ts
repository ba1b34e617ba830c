/**
 * The Cloudflare Pages shell, bundled into the bundle's `_worker.js` (advanced mode): the
 * live paths `_routes.json` sends here go to the core; anything else goes on to the static
 * assets, where `_headers` and `_redirects` apply as for every other file. The core reads
 * the published index and catalog through the same `ASSETS` binding.
 */
import { createContextCache, handleLiveRequest } from './core.js';
import { hostFileNotFound, isHostFilePath } from './host-files.js';

/** The one binding Pages gives an advanced-mode worker: its own static assets. */
export interface PagesEnv {
  ASSETS: { fetch(request: Request | string): Promise<Response> };
}

const contextFor = createContextCache();

export default {
  async fetch(request: Request, env: PagesEnv): Promise<Response> {
    const url = new URL(request.url);
    if (isHostFilePath(url.pathname)) return hostFileNotFound();
    const context = await contextFor(async (path) => {
      const response = await env.ASSETS.fetch(new URL(path, url.origin).href);
      return response.ok ? response.text() : undefined;
    });
    const answer = context && (await handleLiveRequest(request, context));
    return answer ?? env.ASSETS.fetch(request);
  },
};
