/**
 * What each host accepts in one deployment, as the hosts document it, so the build and
 * `check` can say before publishing which hosts a bundle fits. docs/hosting.md repeats the
 * table with the same sources:
 * - Cloudflare Pages: 20,000 files a deployment on the Free plan, 100,000 on paid plans
 *   (changelog of 2026-01-23), 25 MiB per file, 100 `_headers` rules and 100 `_routes.json`
 *   rules (include and exclude together):
 *   https://developers.cloudflare.com/pages/platform/limits/ and
 *   https://developers.cloudflare.com/pages/functions/routing/#limits;
 *   its `_worker.js` is a Worker: 3 MiB after compression on Free, 10 MiB on paid plans:
 *   https://developers.cloudflare.com/workers/platform/limits/#worker-size.
 * - Netlify: a deploy with more than 54,000 files in one folder fails (an answer from
 *   Netlify's support staff, quoted in issue 30), and its deploy refuses a function larger
 *   than 50 MB ("The function … is larger than the 50MB limit", Netlify's own build log as
 *   reported in reactplay/react-play-web-svc#13). Netlify documents no file-count or
 *   per-file limit.
 * - A parted document (`live/bundle-parts.ts`) is streamed by the live handler. On Cloudflare
 *   each part is one `env.ASSETS.fetch`, a request to a Cloudflare service through a binding,
 *   not to the Internet: Workers Free allows "50 external subrequests and 1000 subrequests to
 *   Cloudflare services per invocation", paid plans 10,000 by default (Cloudflare's changelog
 *   of 2026-02-11, "Workers are no longer limited to 1000 subrequests"; the limits page says
 *   the same of internal services: "the subrequest limit is 1,000 per request, regardless of
 *   the usage model", https://developers.cloudflare.com/workers/platform/limits/#subrequests).
 *   Serving a document makes no external fetch (only a rebuild hook calls out), so the 1,000
 *   is the limit it meets. A Netlify function streams "a 20 MB
 *   response size limit" at most (https://docs.netlify.com/functions/api/, "Streaming
 *   responses"), so a larger parted document cannot be served there; Netlify alone keeps
 *   documents whole (`emit/document-storage.ts`).
 */

export const HOST_NAMES = ['cloudflare-pages-free', 'cloudflare-pages-paid', 'netlify'] as const;
export type HostName = (typeof HOST_NAMES)[number];

export interface HostLimits {
  /** Files in one deployment. */
  files?: number;
  /** Bytes of any one file. */
  bytesPerFile?: number;
  /** Files directly inside one folder. */
  filesPerFolder?: number;
  /** Rules in `_headers`. */
  headerRules?: number;
  /** `include` plus `exclude` rules in `_routes.json`. */
  routeRules?: number;
  /** The Cloudflare `_worker.js`, gzip-compressed. */
  workerCompressedBytes?: number;
  /** The Netlify function, compressed. */
  functionCompressedBytes?: number;
  /** Fetches the live handler makes to serve one parted document (its parts, manifest and index). */
  subrequests?: number;
  /** Bytes of one parted document, which the handler streams as one response. */
  streamedBytes?: number;
}

const MIB = 1024 * 1024;

export const HOST_LIMITS: Readonly<Record<HostName, HostLimits>> = {
  'cloudflare-pages-free': {
    files: 20_000,
    bytesPerFile: 25 * MIB,
    headerRules: 100,
    routeRules: 100,
    workerCompressedBytes: 3 * MIB,
    subrequests: 1_000,
  },
  'cloudflare-pages-paid': {
    files: 100_000,
    bytesPerFile: 25 * MIB,
    headerRules: 100,
    routeRules: 100,
    workerCompressedBytes: 10 * MIB,
    subrequests: 10_000,
  },
  netlify: {
    filesPerFolder: 54_000,
    functionCompressedBytes: 50 * 1000 * 1000,
    streamedBytes: 20 * 1000 * 1000,
  },
};
