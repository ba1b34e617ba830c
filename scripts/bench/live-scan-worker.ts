/**
 * The Cloudflare shell with the search swapped for the linear scan (live-scan.ts), bundled
 * by the bench into a copy of the bundle's `_worker.js` so workerd runs both variants the
 * same way. Bench only.
 */
import shell, { type PagesEnv } from '../../live/shells/cloudflare-pages.js';
import { isScanSearch, scanSearch } from './live-scan.js';

export default {
  async fetch(request: Request, env: PagesEnv): Promise<Response> {
    if (!isScanSearch(request)) return shell.fetch(request, env);
    const origin = new URL(request.url).origin;
    return scanSearch(request, async (path) => {
      const response = await env.ASSETS.fetch(new URL(path, origin).href);
      return response.ok ? response.text() : undefined;
    });
  },
};
