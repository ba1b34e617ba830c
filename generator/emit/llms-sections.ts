/**
 * The H2 link sections of llms.txt, in order: the catalog API, the documents, the
 * products, the usage terms and the "Optional" section (which llmstxt.org defines as the
 * links an agent may skip when it needs a shorter context). Every link is absolute and
 * every note is inert Markdown.
 */
import type { BuildPlan } from '../plan.js';
import { firstProducts } from '../product-store/planned-products.js';
import { ACP_PRODUCTS_FILE } from './agent-feeds/acp-feed.js';
import { OPENAI_MANIFEST_FILE } from './agent-feeds/openai-feed.js';
import { catalogUrls } from './catalog.js';
import { liveEndpoints } from './live-endpoints.js';
import { escapeMarkdownInline as inline, formatMarkdownLink as link } from './markdown-text.js';
import {
  API_DOCS_MARKDOWN_PATH,
  API_DOCS_PATH,
  AUTH_MD_PATH,
  FEED_PATH,
  KB_PRODUCTS_PATH,
  knowledgeBasePath,
  LLMS_FULL_PATH,
  OPENAPI_PATH,
  productMarkdownPath,
  ROBOTS_PATH,
  SITEMAP_PATH,
  siteUrl,
  TDMREP_PATH,
} from './sitemap-pages.js';
import type { UsagePolicy } from './usage-policy.js';
import { WELL_KNOWN_DOCUMENTS } from './well-known.js';
import { UCP_PROFILE } from './well-known-ucp.js';
import { requireAbsoluteUrl } from './xml-text.js';

export interface LlmsSection {
  title: 'Catalog API' | 'Documents' | 'Products' | 'Usage' | 'Optional';
  lines: string[];
}

/** The agent platforms' feeds the merchant turned on (config `agent_feeds`). */
function agentFeedLines(plan: BuildPlan, at: (path: string) => string): string[] {
  const feeds = plan.config.agent_feeds;
  return [
    ...(feeds.openai.enabled
      ? [
          item(
            'OpenAI product feed',
            at(`/${OPENAI_MANIFEST_FILE}`),
            'manifest of JSON Lines and CSV shards (gzip), one row per variant',
          ),
        ]
      : []),
    ...(feeds.acp.enabled
      ? [
          item(
            'ACP product feed',
            at(`/${ACP_PRODUCTS_FILE}`),
            'Agentic Commerce Protocol snapshot, one product a line, prices in minor units',
          ),
        ]
      : []),
  ];
}

function item(title: string, url: string, notes: string): string {
  return `- ${link(title, url)}: ${inline(notes)}`;
}

/**
 * The most products llms.txt lists. llmstxt.org describes a concise guide that fits a
 * model's context; at 10,000 products the full list was 1.3 MB. Past this number the
 * first products (by slug) are listed, then the two documents that list every product.
 */
export const LLMS_PRODUCT_LIMIT = 200;

function productLines(plan: BuildPlan): string[] {
  const { count } = plan.catalog;
  const listed = firstProducts(plan.products, LLMS_PRODUCT_LIMIT).map(({ record: product }) => {
    const url = requireAbsoluteUrl(product.url, { product: product.slug, field: 'url' });
    const range = product.price_range;
    const facts = [
      range === undefined
        ? `${product.price} ${product.currency}`
        : `${range.min} to ${range.max} ${product.currency}`,
      product.availability,
      product.brand,
      product.flavor,
      product.packaging,
    ];
    const markdown = `Markdown: ${siteUrl(plan.config, productMarkdownPath(product.slug))}`;
    const known = facts.filter((fact): fact is string => fact !== undefined);
    return item(product.name, url, [...known, markdown].join('; '));
  });
  if (count <= LLMS_PRODUCT_LIMIT) return listed;
  const rest = `${count - LLMS_PRODUCT_LIMIT} more products are not listed here`;
  return [
    ...listed,
    item('Every product (catalog)', catalogUrls(plan.config).catalogUrl, `${rest}; all ${count} as JSON`),
    item(
      'Every product (knowledge base)',
      siteUrl(plan.config, knowledgeBasePath(plan.config)),
      `${rest}; all ${count} as Markdown`,
    ),
  ];
}

/** The live endpoints, when the live surface is on. */
function liveLines(config: BuildPlan['config']): string[] {
  const endpoints = liveEndpoints(config);
  if (endpoints === undefined) return [];
  return [
    item(
      'MCP server',
      endpoints.mcp,
      'search_catalog, lookup_catalog and get_product over MCP Streamable HTTP (read-only, no key); UCP catalog shapes',
    ),
    item(
      'UCP business profile',
      `${config.site_url}${UCP_PROFILE.publicPath}`,
      `Universal Commerce Protocol discovery: catalog search and lookup over MCP and REST (POST ${endpoints.rest}/catalog/search)`,
    ),
  ];
}

export function llmsSections(plan: BuildPlan, policy: UsagePolicy): LlmsSection[] {
  const { config } = plan;
  const at = (path: string) => siteUrl(config, path);
  const { catalogUrl, healthUrl } = catalogUrls(config);
  return [
    {
      title: 'Catalog API',
      lines: [
        item('Product catalog', catalogUrl, 'every product as JSON (GET, no key), cached for 15 minutes'),
        item('Health', healthUrl, 'liveness; does not call upstream services'),
        item('OpenAPI description', at(OPENAPI_PATH), 'OpenAPI 3.1.0 description of both operations'),
        item(
          'API documentation',
          at(API_DOCS_PATH),
          'operations, example requests and responses, usage rules',
        ),
        ...liveLines(config),
      ],
    },
    {
      title: 'Documents',
      lines: [
        item(
          'Knowledge base',
          at(knowledgeBasePath(config)),
          'Markdown: every product and the merchant articles',
        ),
        item(
          'Products as JSON',
          at(KB_PRODUCTS_PATH),
          'the catalog records with their source and usage terms',
        ),
        item('Product feed', at(FEED_PATH), 'Google Merchant Center RSS 2.0'),
        ...agentFeedLines(plan, at),
        item('Sitemap', at(SITEMAP_PATH), 'product pages and public documents'),
      ],
    },
    { title: 'Products', lines: productLines(plan) },
    {
      title: 'Usage',
      lines: [
        item(
          'Terms of use',
          policy.termsUrl,
          `cite with attribution and a link to the product URL; under ${policy.requestsPerMinute} requests a minute; ${
            policy.allowTraining ? 'training permitted' : 'no model training'
          }; no automated purchases`,
        ),
        item('robots.txt', at(ROBOTS_PATH), `content signals: ${policy.contentSignal}`),
        item('TDMRep', at(TDMREP_PATH), 'W3C text and data mining reservation'),
      ],
    },
    {
      title: 'Optional',
      lines: [
        item('Full text', at(LLMS_FULL_PATH), 'this guide with the knowledge base inlined, for one fetch'),
        item(
          'API catalog',
          at(WELL_KNOWN_DOCUMENTS.apiCatalog.publicPath),
          'RFC 9727 linkset of the catalog API',
        ),
        // The A2A card exists only with the live surface, whose handler serves its endpoint.
        ...(liveEndpoints(plan.config) === undefined
          ? []
          : [
              item(
                'Agent card',
                at(`/${WELL_KNOWN_DOCUMENTS.agent.path}`),
                'A2A 1.0 card: SendMessage at the A2A endpoint searches the catalog',
              ),
            ]),
        item(
          'AI catalog',
          at('/.well-known/ai-catalog.json'),
          'the MCP server card and agent card (live), skills and API catalog',
        ),
        item(
          'Agent skills',
          at('/.well-known/agent-skills/index.json'),
          'how to search, cite and link the catalog',
        ),
        item(
          'API documentation in Markdown',
          at(API_DOCS_MARKDOWN_PATH),
          'the documentation page as Markdown',
        ),
        item('auth.md', at(AUTH_MD_PATH), "how an agent gets a customer's consent for account access"),
        item(
          'OAuth protected resource metadata',
          at(WELL_KNOWN_DOCUMENTS.protectedResource.publicPath),
          `optional account-scoped access through ${config.auth_url}`,
        ),
      ],
    },
  ];
}
