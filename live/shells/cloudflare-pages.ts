/**
 * The Cloudflare Pages shell, bundled into the bundle's `_worker.js` (advanced mode): the
 * live paths `_routes.json` sends here go to the core; anything else goes on to the static
 * assets, where `_headers` and `_redirects` apply as for every other file. The core reads
 * the published index and catalog through the same `ASSETS` binding.
 */
import {
  createContextCache,
  createHookRuntime,
  type HookRuntime,
  handleLiveRequest,
  SERVERLESS_POLICY,
} from './core.js';
import { hostFileNotFound, isHostFilePath } from './host-files.js';

/**
 * What Pages hands an advanced-mode worker: its own static assets, and the project's
 * environment variables and secrets (Settings → Variables and Secrets) as plain strings.
 */
export interface PagesEnv {
  ASSETS: { fetch(request: Request | string): Promise<Response> };
  [variable: string]: unknown;
}

/** The execution context: `waitUntil` keeps the isolate alive after the answer (up to 30 s). */
export interface PagesContext {
  waitUntil(promise: Promise<unknown>): void;
}

const contextFor = createContextCache();

/** One receiver state per isolate: the environment does not change under a deployment. */
let hooks: { runtime: HookRuntime | undefined } | undefined;

function hooksFor(env: PagesEnv): HookRuntime | undefined {
  hooks ??= {
    runtime: createHookRuntime(
      (name) => {
        const value = env[name];
        return typeof value === 'string' ? value : undefined;
      },
      { policy: SERVERLESS_POLICY },
    ),
  };
  return hooks.runtime;
}

export default {
  async fetch(request: Request, env: PagesEnv, ctx?: PagesContext): Promise<Response> {
    const url = new URL(request.url);
    if (isHostFilePath(url.pathname)) return hostFileNotFound();
    const fetchAsset = (path: string) => env.ASSETS.fetch(new URL(path, url.origin).href);
    const context = await contextFor({
      readAsset: async (path) => {
        const response = await fetchAsset(path);
        return response.ok ? response.text() : undefined;
      },
      readAssetBytes: async (path) => {
        const response = await fetchAsset(path);
        return response.ok ? new Uint8Array(await response.arrayBuffer()) : undefined;
      },
    });
    const waitUntil = ctx ? (promise: Promise<unknown>) => ctx.waitUntil(promise) : undefined;
    // A parted document's parts, one asset each (docs/hosting.md counts them as subrequests).
    const openAsset = async (path: string) => {
      const response = await env.ASSETS.fetch(new URL(path, url.origin).href);
      return response.ok ? (response.body ?? undefined) : undefined;
    };
    const live = context && { ...context, openAsset, hooks: hooksFor(env), waitUntil };
    const answer = live && (await handleLiveRequest(request, live));
    return answer ?? env.ASSETS.fetch(request);
  },
};
