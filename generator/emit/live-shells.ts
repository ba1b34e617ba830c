/**
 * Emits each host's copy of the live handler and its routing: Cloudflare Pages'
 * `_worker.js` and `_routes.json` (only the live paths invoke the worker, so every static
 * file is still served by the CDN with its `_headers`), and the Netlify Functions v2
 * function in `.netlify-functions/` with its `config.path` (the product pages' folder
 * too when the pages are packed into shards; netlify.toml's
 * `[functions] directory` names the folder). Nothing is emitted when the live surface is
 * off (`live.enabled: false`), so the bundle is plain files again.
 */
import { NETLIFY_FUNCTION_FILE, WORKER_FILE } from '../../live/shells/host-files.js';
import type { Artifact } from '../artifact.js';
import type { BuildPlan } from '../plan.js';
import { bundleLiveShells } from './live-bundle.js';
import { cloudflareRoutes, formatRoutesFile, ROUTES_FILE, routedPaths } from './live-routes.js';
import { markdownTwins } from './markdown-twins.js';
import { packsProductPages } from './product-page-shards.js';
import { PRODUCT_MARKDOWN_DIR } from './sitemap-pages.js';

const JAVASCRIPT = 'text/javascript; charset=utf-8';

/** The base path of the catalog (`''` or `/api`), which the live paths sit under. */
function basePathOf(plan: BuildPlan): string {
  return new URL(plan.config.base_url).pathname.replace(/\/+$/, '');
}

/**
 * `partedPaths`: the URL paths of the parted documents (`document-storage.ts`), which the
 * handler answers whole from their parts, so both hosts route them to it.
 */
export function emitLiveShells(plan: BuildPlan, partedPaths: readonly string[] = []): Artifact[] {
  if (!plan.config.live.enabled) return [];
  const code = bundleLiveShells();
  const basePath = basePathOf(plan);
  const pages = [...markdownTwins(plan.config).map(({ page }) => page), ...partedPaths];
  const packed = packsProductPages(plan) ? [PRODUCT_MARKDOWN_DIR] : [];
  // Netlify reads `config` statically from the file's source: a plain object literal, first.
  // Then the site's origin, the one host besides its Netlify and loopback names it answers for (trusted-host.ts).
  const netlifyConfig = [
    `export const config = ${JSON.stringify({ path: routedPaths(basePath, pages, packed) })};`,
    `const AGENT_CATALOG_SITE_ORIGIN = ${JSON.stringify(new URL(plan.config.site_url).origin)};`,
    '',
  ].join('\n');
  return [
    { path: WORKER_FILE, mediaType: JAVASCRIPT, body: code.cloudflare },
    {
      path: ROUTES_FILE,
      mediaType: 'application/json',
      body: formatRoutesFile(cloudflareRoutes(basePath, pages, packed)),
    },
    { path: NETLIFY_FUNCTION_FILE, mediaType: JAVASCRIPT, body: `${netlifyConfig}${code.netlify}` },
  ];
}
