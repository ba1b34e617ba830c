/**
 * Where the generator puts each host's copy of the live handler, and the paths those files
 * would otherwise be downloadable at. Cloudflare Pages never serves its own `_worker.js`
 * and `_routes.json`, but Netlify would serve them as plain files; Netlify's deploy skips
 * dot folders, so the function's folder is one, but Cloudflare Pages would serve it. Each
 * shell answers 404 for the other host's files, so an unknown path stays a real 404 on
 * both (CONTRACT.md, "Public URLs").
 */

/** Cloudflare Pages' advanced-mode worker, at the root of the publish directory. */
export const WORKER_FILE = '_worker.js';
/** Cloudflare Pages' routing file: which paths invoke the worker. */
export const ROUTES_FILE = '_routes.json';
/** Netlify's functions directory inside the bundle (netlify.toml `[functions] directory`). */
export const NETLIFY_FUNCTIONS_DIR = '.netlify-functions';
/** The Netlify function's name (its file is `<dir>/<name>.mjs`). */
export const NETLIFY_FUNCTION_NAME = 'agent-catalog-live';
export const NETLIFY_FUNCTION_FILE = `${NETLIFY_FUNCTIONS_DIR}/${NETLIFY_FUNCTION_NAME}.mjs`;

/** The URL paths of the files above; none may ever be served. */
export const HOST_FILE_PATHS: readonly string[] = [
  `/${WORKER_FILE}`,
  `/${ROUTES_FILE}`,
  `/${NETLIFY_FUNCTIONS_DIR}/*`,
];

/** True when `pathname` is one of the host files (a `/*` entry covers its folder). */
export function isHostFilePath(pathname: string): boolean {
  return HOST_FILE_PATHS.some((pattern) =>
    pattern.endsWith('/*') ? pathname.startsWith(pattern.slice(0, -1)) : pathname === pattern,
  );
}

/** The answer for a host file: as plain as the hosts' own 404. */
export function hostFileNotFound(): Response {
  return new Response('not found', {
    status: 404,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
  });
}
