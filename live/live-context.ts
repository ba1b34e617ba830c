/**
 * What each runtime shell hands the live core: the settings of this deployment and a
 * reader for the bundle's own files (Cloudflare `env.ASSETS.fetch`, Netlify's bundled
 * files, Node's fs). The core never touches a file system or the network itself.
 */
import type { HookRuntime } from './hooks/hook-runtime.js';
import { type LiveManifest, MANIFEST_PATH } from './live-files.js';

/** Reads a file of the bundle by its path relative to the bundle root; undefined when absent. */
export type AssetReader = (path: string) => Promise<string | undefined>;

/**
 * Reads a file of the bundle as bytes, as the host hands them over (`arrayBuffer()` of
 * the asset's response, Node's `readFile`); undefined when absent. The search index's
 * `.bin` files are read this way: as text they would not survive UTF-8 decoding.
 */
export type AssetBytesReader = (path: string) => Promise<Uint8Array | undefined>;

/** What a shell reads the bundle's files with. */
export interface AssetFiles {
  readAsset: AssetReader;
  readAssetBytes: AssetBytesReader;
}

/** Opens a file of the bundle as a byte stream (a parted document's part); undefined when absent. */
export type AssetOpener = (path: string) => Promise<ReadableStream<Uint8Array> | undefined>;

export interface LiveSettings {
  /** Where `{base_url}` is mounted: "" at the root, or a path such as "/api" (no trailing slash). */
  basePath: string;
  /** `{site_url}`, an origin. */
  siteOrigin: string;
  /** The issuer identifier (`auth_url`) whose access tokens the account tools accept; "" when the bundle names none. */
  issuer: string;
  /** `{base_url}/mcp`, the MCP endpoint's URL: the audience its tokens must carry. */
  mcpEndpoint: string;
  /**
   * Origins allowed to call the MCP endpoint from a browser, besides the site's own and
   * the loopback origins of a local run (MCP transport: servers MUST validate `Origin`).
   */
  allowedOrigins: readonly string[];
  /** The request rate the documents announce (RateLimit-Policy), per client per minute. */
  requestsPerMinute: number;
  /** Further usage-policy fields the documents carry (Content-Usage, tdm-reservation…). */
  policyHeaders?: readonly (readonly [name: string, value: string])[];
  /** The bundle's build time; keys the per-isolate cache. */
  generated: string;
  /** The HTML pages whose Markdown twin the core serves when `Accept` prefers it. */
  markdownPages: readonly { path: string; html: string; twin: string }[];
}

export interface LiveContext extends AssetFiles {
  settings: LiveSettings;
  /** Streams a bundle file; a shell without it serves no parted document (`parted-document-route.ts`). */
  openAsset?: AssetOpener;
  /** How the account tool asks the issuer's userinfo; default the global `fetch`. */
  fetch?: typeof fetch;
  /** Milliseconds since the epoch for token expiry; default `Date.now` (tests move it). */
  now?: () => number;
  /**
   * The static file at a bundle path as the host serves it (headers included), for a shell
   * whose routed paths cannot fall through to the static files (Netlify's function); the
   * others leave it out and serve the HTML form of a page themselves.
   */
  fetchStatic?: (path: string) => Promise<Response>;
  /** The webhook receiver's state, from the host's environment; undefined when no receiver is on. */
  hooks?: HookRuntime;
  /** Keeps the instance alive for work after the answer (a rebuild trigger); a Node process needs none. */
  waitUntil?: (promise: Promise<unknown>) => void;
}

/**
 * The settings the generator wrote into `_live/manifest.json`, for shells that have
 * nothing better; undefined when the bundle has no live surface.
 */
export async function readLiveSettings(readAsset: AssetReader): Promise<LiveSettings | undefined> {
  const text = await readAsset(MANIFEST_PATH);
  if (text === undefined) return undefined;
  const manifest = JSON.parse(text) as LiveManifest;
  return {
    basePath: manifest.base_path,
    siteOrigin: manifest.site_url,
    // A bundle built before the account tool has neither: its account tool then answers 503.
    issuer: manifest.auth_url ?? '',
    mcpEndpoint: manifest.mcp_endpoint ?? '',
    allowedOrigins: manifest.allowed_origins,
    requestsPerMinute: manifest.requests_per_minute,
    policyHeaders: manifest.policy_headers,
    generated: manifest.generated,
    markdownPages: manifest.markdown_pages ?? [],
  };
}
