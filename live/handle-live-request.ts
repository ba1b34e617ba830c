/**
 * The live handler's pure core: `handleLiveRequest(request, context)` answers the live
 * paths (`{base_url}/mcp`, `{base_url}/ucp/catalog/*`, `{base_url}/a2a`) from the bundle's
 * search index and product data, receives the store's webhooks (`{base_url}/hooks/*`,
 * `hooks/`), answers the product pages packed into shards (`page-route.ts`), and returns
 * undefined for every other path so the runtime shell serves its static files. Web-standard `Request`/`Response` only; the shells (Cloudflare,
 * Netlify, Node) adapt I/O and supply the asset reader. Every answer carries the usage
 * headers the documents announce (RateLimit-Policy and the content-usage fields), and a
 * failure inside never leaks a stack: a client's mistake is a 4xx, a broken bundle a 503.
 */
import { handleA2aRequest } from './a2a-route.js';
import { handleWebhookRequest, matchHookPath } from './hooks/webhook-route.js';
import type { LiveContext } from './live-context.js';
import { type LiveData, LiveDataError, loadLiveData } from './live-data.js';
import { choosePageForm, HTML, MARKDOWN, negotiatePage } from './markdown-negotiation.js';
import { handleMcpRequest } from './mcp-route.js';
import { answerProductPage } from './page-route.js';
import { handlePartedDocument } from './parted-document-route.js';
import type { BodyLimits } from './read-body.js';
import { handleRestRequest, REST_OPERATIONS } from './rest-route.js';

/**
 * MCP and REST bodies are small JSON objects; a 1 MB query is refused before parsing. A
 * body that never ends is cut off "within 10 s" (CONTRACT.md, "MCP and UCP shapes"): the
 * deadline sits 2 s under that bound, because the 408 still has to be written and travel
 * (with the deadline on the bound itself it arrived at 10.02 to 10.08 s). Every shell
 * (Cloudflare, Netlify, Node) reads its limits from here.
 */
export const DEFAULT_BODY_LIMITS: BodyLimits = { maxBytes: 64 * 1024, deadlineMs: 8_000 };

export async function handleLiveRequest(
  request: Request,
  context: LiveContext,
  limits: BodyLimits = DEFAULT_BODY_LIMITS,
): Promise<Response | undefined> {
  const pathname = new URL(request.url).pathname;
  const hook = matchHookPath(pathname, context.settings.basePath);
  // The receiver answers for itself (no usage headers: its callers are the store's platform).
  if (hook !== undefined) return handleWebhookRequest(request, hook, context.hooks, context.waitUntil);
  // `/api` is the same page as `/api/` (hosts redirect or serve it; Netlify routes it here).
  const page = context.settings.markdownPages.find(
    (candidate) => candidate.path === pathname || candidate.path === `${pathname}/`,
  );
  if (page !== undefined) return negotiateLivePage(request, context, page);
  const route = matchLiveRoute(pathname, context.settings.basePath);
  // A document too large for one host file, stored in parts: served whole, with its own
  // headers; else a product page, when the bundle packs them (with its file's headers too).
  if (route === undefined) {
    const parted = await handlePartedDocument(request, pathname, context);
    return parted ?? answerProductPage(request, context.settings, context.readAsset);
  }
  const loadData = (): Promise<LiveData> => loadLiveData(context.settings, context);
  let response: Response;
  try {
    response =
      route === 'mcp'
        ? await handleMcpRequest(request, context, loadData, limits)
        : route === 'a2a'
          ? await handleA2aRequest(request, context, loadData, limits)
          : await handleRestRequest(request, route, loadData, limits);
  } catch (error) {
    response = Response.json(
      { error: error instanceof LiveDataError ? 'the catalog is not available' : 'internal error' },
      { status: error instanceof LiveDataError ? 503 : 500 },
    );
  }
  return withPolicyHeaders(response, context);
}

/**
 * An HTML page's URL: its Markdown twin when `Accept` prefers it (or 406 when neither form
 * fits), else the HTML. The HTML form is the static file, served by the shell (undefined
 * here) or fetched through `fetchStatic` where the shell cannot fall through; its
 * `Vary: Accept` comes from the hosting rules, so the static host sends it too.
 */
async function negotiateLivePage(
  request: Request,
  context: LiveContext,
  page: { html: string; twin: string },
): Promise<Response | undefined> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
  const form = choosePageForm(request.headers.get('accept'));
  const { fetchStatic } = context;
  if (form === HTML && fetchStatic === undefined) return undefined;
  const markdown = form === MARKDOWN ? await context.readAsset(page.twin) : '';
  if (markdown === undefined) return undefined;
  return negotiatePage(request, {
    markdown,
    html: () => (fetchStatic ? fetchStatic(page.html) : Promise.resolve(new Response(null, { status: 404 }))),
    headers: [
      ['access-control-allow-origin', '*'],
      ['cache-control', 'public, max-age=900'],
      ['x-content-type-options', 'nosniff'],
      // The same usage terms the page's static forms carry in `_headers`.
      ...usageHeaders(context),
    ],
  });
}

type LiveRoute = 'mcp' | 'a2a' | (typeof REST_OPERATIONS)[string];

function matchLiveRoute(pathname: string, basePath: string): LiveRoute | undefined {
  if (!pathname.startsWith(`${basePath}/`)) return undefined;
  const rest = pathname.slice(basePath.length);
  if (rest === '/mcp') return 'mcp';
  if (rest === '/a2a') return 'a2a';
  if (!rest.startsWith('/ucp/')) return undefined;
  const operation = rest.slice('/ucp'.length);
  return Object.hasOwn(REST_OPERATIONS, operation) ? REST_OPERATIONS[operation] : undefined;
}

/** The usage terms the documents announce (Content-Usage, tdm-*) and the request rate. */
function usageHeaders(context: LiveContext): [string, string][] {
  const headers = new Map((context.settings.policyHeaders ?? []).map(([name, value]) => [name, value]));
  // The rate the shell was given wins over the one written at build time.
  headers.set('RateLimit-Policy', `"default";q=${context.settings.requestsPerMinute};w=60`);
  return [...headers];
}

function withPolicyHeaders(response: Response, context: LiveContext): Response {
  const headers = new Headers(response.headers);
  for (const [name, value] of usageHeaders(context)) headers.set(name, value);
  headers.set('Cache-Control', 'no-store');
  headers.set('X-Content-Type-Options', 'nosniff');
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
