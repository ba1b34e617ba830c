/**
 * The site root `/` in deployment model (a), where the bundle has a host of its own (e.g.
 * `agents.<store>`) and the store is elsewhere: a small HTML page for the people and agents
 * who land there, naming the merchant, saying what the API is and linking the docs, the
 * catalog, llms.txt, the feed and the shop. In model (b) the root is the storefront's home
 * page, proxied by the CDN, so nothing is emitted. Rendered from `templates/landing/index.hbs`
 * (Handlebars escapes every value; no script, inline CSS only), with a `404.html` beside it. `LANDING_LINKS` are the
 * `Link` header values the hosting rules send with it, for scanners that read headers only.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Handlebars from 'handlebars';
import type { Artifact } from '../artifact.js';
import type { ResolvedConfig } from '../config.js';
import { TEMPLATES_DIR } from '../paths.js';
import type { BuildPlan } from '../plan.js';
import { catalogUrls } from './catalog.js';
import { liveSurface } from './live-endpoints.js';
import {
  API_DOCS_PATH,
  FEED_PATH,
  LANDING_MARKDOWN_PATH,
  LLMS_PATH,
  OPENAPI_PATH,
  siteUrl,
} from './sitemap-pages.js';
import { resolveUsagePolicy } from './usage-policy.js';
import { WEBMCP_PATH } from './webmcp.js';
import { WELL_KNOWN_DOCUMENTS } from './well-known.js';

export const LANDING_FILE = 'index.html';
export const LANDING_PUBLIC_PATH = '/';
/** Served by both hosts (and preview) with status 404 for any path that matches nothing. */
export const NOT_FOUND_FILE = '404.html';
const HTML = 'text/html; charset=utf-8';

interface LandingView {
  merchant: string;
  summary: string;
  storefrontUrl: string;
  productCount: number;
  requestsPerMinute: number;
  contact: string;
  generated: string;
  links: {
    apiCatalog: string;
    openapi: string;
    docs: string;
    llms: string;
    feed: string;
    catalog: string;
    markdown: string;
    aiCatalog: string;
    webmcp?: string;
  };
}

interface NotFoundView {
  merchant: string;
  home: string;
  storefrontUrl: string;
}

const templates = new Map<string, Handlebars.TemplateDelegate>();

function render(name: 'index' | '404', view: LandingView | NotFoundView): string {
  let template = templates.get(name);
  if (template === undefined) {
    const source = readFileSync(join(TEMPLATES_DIR, 'landing', `${name}.hbs`), 'utf8');
    template = Handlebars.create().compile(source, { strict: true });
    templates.set(name, template);
  }
  return template(view);
}

/** Model (a): the bundle is served on another origin than the store. */
export function hasOwnHost(config: ResolvedConfig): boolean {
  return new URL(config.site_url).origin !== new URL(config.storefront_url).origin;
}

/**
 * The `Link` values every HTML page of the bundle carries (`/` and `/api/` alike), so an
 * agent that lands on any page finds the same agent-useful resources in its headers: RFC
 * 9727 api-catalog, RFC 8631 service-desc and service-doc, describedby (RFC 8288's
 * registry: a resource describing this one, here llms.txt, the site described for
 * language models) and the AI catalog (Agent-Card/ai-catalog's "ai-catalog" relation). The
 * hosting rules add each page's Markdown twin.
 */
export function landingLinks(): string[] {
  return [
    `<${WELL_KNOWN_DOCUMENTS.apiCatalog.publicPath}>; rel="api-catalog"`,
    `<${OPENAPI_PATH}>; rel="service-desc"; type="application/vnd.oai.openapi+json;version=3.1"`,
    `<${API_DOCS_PATH}>; rel="service-doc"; type="text/html"`,
    `<${LLMS_PATH}>; rel="describedby"; type="text/plain"`,
    '</.well-known/ai-catalog.json>; rel="ai-catalog"; type="application/ai-catalog+json"',
  ];
}

export function emitLanding(plan: BuildPlan): Artifact[] {
  const { config } = plan;
  if (!hasOwnHost(config)) return [];
  const view: LandingView = {
    merchant: config.merchant.name,
    summary: config.merchant.description ?? '',
    storefrontUrl: config.storefront_url,
    productCount: plan.catalog.count,
    requestsPerMinute: resolveUsagePolicy(config).requestsPerMinute,
    contact: config.merchant.contact,
    generated: plan.generated,
    links: {
      apiCatalog: siteUrl(config, WELL_KNOWN_DOCUMENTS.apiCatalog.publicPath),
      openapi: siteUrl(config, OPENAPI_PATH),
      docs: siteUrl(config, API_DOCS_PATH),
      llms: siteUrl(config, LLMS_PATH),
      feed: siteUrl(config, FEED_PATH),
      catalog: catalogUrls(config).catalogUrl,
      markdown: siteUrl(config, LANDING_MARKDOWN_PATH),
      aiCatalog: siteUrl(config, '/.well-known/ai-catalog.json'),
      // Same origin, path-absolute: the page's CSP allows script-src 'self' only.
      ...(liveSurface(config) !== undefined ? { webmcp: WEBMCP_PATH } : {}),
    },
  };
  const notFound: NotFoundView = {
    merchant: view.merchant,
    home: `${config.site_url}/`,
    storefrontUrl: view.storefrontUrl,
  };
  return [
    { path: LANDING_FILE, publicPath: LANDING_PUBLIC_PATH, mediaType: HTML, body: render('index', view) },
    // Cloudflare Pages treats a site with index.html and no top-level 404.html as a
    // single-page app and answers every unknown path 200 with the root page; this keeps them 404.
    { path: NOT_FOUND_FILE, mediaType: HTML, body: render('404', notFound) },
  ];
}
