/**
 * The Markdown twins of the bundle's HTML pages: `/api/index.md` for the documentation
 * page `/api/` and, in model (a), `/index.md` for the landing page `/`. Each is rendered
 * from the very view its HTML page is rendered from (`buildDocsView`, the landing links),
 * so the two forms say the same things. Agents reach a twin by its URL, by the
 * `<link rel="alternate" type="text/markdown">` of the page and its `Link` header, or, where
 * the live handler runs, by asking for `text/markdown` on the page's own URL.
 */
import type { Artifact } from '../artifact.js';
import type { ResolvedConfig } from '../config.js';
import type { BuildPlan } from '../plan.js';
import { SKILLS_INDEX_FILE } from './agent-skills.js';
import { AI_CATALOG_FILE } from './ai-catalog.js';
import { buildDocsView, type DocsView } from './docs-view.js';
import { hasOwnHost, LANDING_PUBLIC_PATH } from './landing.js';
import { liveSurface } from './live-endpoints.js';
import { escapeMarkdownInline, escapeMarkdownParagraphs } from './markdown-text.js';
import { buildOpenApiDocument } from './openapi.js';
import {
  API_DOCS_MARKDOWN_PATH,
  API_DOCS_PATH,
  AUTH_MD_PATH,
  FEED_PATH,
  filePathOf,
  knowledgeBasePath,
  LANDING_MARKDOWN_PATH,
  LLMS_PATH,
  OPENAPI_PATH,
  siteUrl,
} from './sitemap-pages.js';
import { resolveUsagePolicy } from './usage-policy.js';

export const MARKDOWN_MEDIA_TYPE = 'text/markdown; charset=utf-8';

/** Each HTML page's URL path and the URL path of its Markdown twin. */
export function markdownTwins(config: ResolvedConfig): { page: string; twin: string }[] {
  const twins = [{ page: API_DOCS_PATH, twin: API_DOCS_MARKDOWN_PATH }];
  if (hasOwnHost(config)) twins.unshift({ page: LANDING_PUBLIC_PATH, twin: LANDING_MARKDOWN_PATH });
  return twins;
}

/** The `Link` value an HTML page carries for its twin (RFC 8288; the same as its `<link>` element). */
export function markdownAlternateLink(twin: string): string {
  return `<${twin}>; rel="alternate"; type="text/markdown"`;
}

function link(label: string, url: string, note?: string): string {
  return `- [${escapeMarkdownInline(label)}](<${url}>)${note ? `: ${escapeMarkdownInline(note)}` : ''}`;
}

function renderLanding(plan: BuildPlan): string {
  const { config } = plan;
  const at = (path: string) => siteUrl(config, path);
  const policy = resolveUsagePolicy(config);
  const live = liveSurface(config);
  return [
    `# ${escapeMarkdownInline(config.merchant.name)}: product catalog for agents`,
    '',
    ...(config.merchant.description ? [escapeMarkdownParagraphs(config.merchant.description), ''] : []),
    `${plan.catalog.count} products as open data for people, scripts and AI agents. The shop itself is at <${config.storefront_url}>; purchases are completed there by a person.`,
    '',
    '## Read the catalog',
    '',
    link('Catalog (JSON)', `${config.base_url}/agent-catalog`, 'every product, GET, no key'),
    ...(live ? [link('MCP server', live.mcp, 'search_catalog, lookup_catalog, get_product')] : []),
    link('API documentation', at(API_DOCS_MARKDOWN_PATH), 'in Markdown'),
    link('OpenAPI description', at(OPENAPI_PATH)),
    link('Knowledge base', at(knowledgeBasePath(config)), 'every product in Markdown'),
    link('llms.txt', at(LLMS_PATH)),
    link('Product feed', at(FEED_PATH)),
    '',
    '## Discovery',
    '',
    link('AI catalog', at(`/${AI_CATALOG_FILE}`)),
    link('Agent skills', at(`/${SKILLS_INDEX_FILE}`)),
    link('Account access for agents (auth.md)', at(AUTH_MD_PATH)),
    '',
    '## Rules',
    '',
    ...policy.rules.map((rule) => `- ${escapeMarkdownInline(rule.text)}`),
    '',
    `Contact: ${escapeMarkdownInline(config.merchant.contact)}. Generated ${plan.generated}.`,
    '',
  ].join('\n');
}

function renderOperations(view: DocsView): string[] {
  return view.operations.flatMap((operation) => [
    `## ${escapeMarkdownInline(operation.summary || operation.id)}`,
    '',
    `\`${operation.method} ${operation.url}\` (operation \`${operation.id}\`)`,
    '',
    operation.descriptionParts.map((part) => (part.code ? `\`${part.text}\`` : part.text)).join(''),
    '',
    '```sh',
    operation.curl,
    '```',
    '',
    ...operation.responses.map(
      (response) =>
        `- ${response.status}: ${escapeMarkdownInline(response.description)} (schema ${response.schema})`,
    ),
    '',
  ]);
}

function renderSchemas(view: DocsView): string[] {
  return view.schemas.flatMap((schema) => [
    `### ${schema.name}`,
    '',
    ...(schema.description ? [escapeMarkdownInline(schema.description), ''] : []),
    ...schema.fields.map((field) => {
      const notes = field.notes ? `: ${escapeMarkdownInline(field.notes)}` : '';
      return `- \`${field.name}\` (${escapeMarkdownInline(field.type)}${field.required ? ', required' : ''})${notes}`;
    }),
    '',
  ]);
}

function renderApiDocs(view: DocsView): string {
  return [
    `# ${escapeMarkdownInline(view.title)}`,
    '',
    escapeMarkdownParagraphs(view.summary),
    '',
    `API version ${view.version}, OpenAPI ${view.openapiVersion}. ${view.productCount} products, generated ${view.generated}.`,
    '',
    ...renderOperations(view),
    '## Schemas',
    '',
    ...renderSchemas(view),
    '## Usage',
    '',
    ...view.rules.map((rule) => `- ${escapeMarkdownInline(rule)}`),
    '',
    '## Discovery',
    '',
    ...view.discovery.map((entry) => link(entry.label, entry.url)),
    '',
    `Contact: ${escapeMarkdownInline(view.contact)}`,
    '',
  ].join('\n');
}

export function emitMarkdownTwins(plan: BuildPlan): Artifact[] {
  const artifacts: Artifact[] = [
    {
      path: filePathOf(API_DOCS_MARKDOWN_PATH),
      mediaType: MARKDOWN_MEDIA_TYPE,
      body: renderApiDocs(buildDocsView(buildOpenApiDocument(plan.config), plan)),
    },
  ];
  if (hasOwnHost(plan.config)) {
    artifacts.unshift({
      path: filePathOf(LANDING_MARKDOWN_PATH),
      mediaType: MARKDOWN_MEDIA_TYPE,
      body: renderLanding(plan),
    });
  }
  return artifacts;
}
