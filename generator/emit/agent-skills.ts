/**
 * Agent Skills discovery (cloudflare/agent-skills-discovery-rfc, v0.2.0): the index at
 * `/.well-known/agent-skills/index.json` and one skill, `shop-<merchant-slug>`, as a
 * `SKILL.md` (YAML front matter `name` and `description` written by gray-matter, then
 * Markdown instructions): how to search and look up products over MCP and UCP REST, how to
 * cite and link, and what not to do. The index's `digest` is "the SHA-256 of the SKILL.md
 * file's raw bytes", computed here over the exact body published, so a client that
 * "MUST verify downloaded content against the digest" gets a match.
 */
import { createHash } from 'node:crypto';
import matter from 'gray-matter';
import type { Artifact } from '../artifact.js';
import type { ResolvedConfig } from '../config.js';
import type { BuildPlan } from '../plan.js';
import { catalogUrls } from './catalog.js';
import { stableJson } from './json.js';
import { type LiveEndpoints, liveSurface } from './live-endpoints.js';
import { escapeMarkdownInline } from './markdown-text.js';
import { resolveUsagePolicy } from './usage-policy.js';

export const SKILLS_INDEX_FILE = '.well-known/agent-skills/index.json';
export const SKILLS_SCHEMA = 'https://schemas.agentskills.io/discovery/0.2.0/schema.json';
/** The RFC: "Serve SKILL.md files with text/markdown or text/plain content type". */
export const SKILL_MEDIA_TYPE = 'text/markdown; charset=utf-8';
/** Agent Skills naming: 1-64 of a-z, 0-9 and single hyphens, not at either end. */
export const SKILL_NAME = /^(?=.{1,64}$)[a-z0-9]+(-[a-z0-9]+)*$/;
/** The Agent Skills spec caps a description at 1,024 characters. */
const MAX_DESCRIPTION = 1024;

export function skillName(config: ResolvedConfig): string {
  const slug = config.merchant.slug.replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  return `shop-${slug}`.slice(0, 64).replace(/-+$/, '');
}

export function skillFile(name: string): string {
  return `.well-known/agent-skills/${name}/SKILL.md`;
}

/** `sha256:<64 lowercase hex>` of the UTF-8 bytes of a body. */
export function sha256Digest(body: string): string {
  return `sha256:${createHash('sha256').update(body, 'utf8').digest('hex')}`;
}

function describeSkill(config: ResolvedConfig): string {
  const text = `Search and look up the products of ${config.merchant.name} (prices, availability, variants, product links) through its public catalog, and cite them correctly. Use when a person asks what ${config.merchant.name} sells, what something costs or whether it is in stock.`;
  return text.length <= MAX_DESCRIPTION ? text : `${text.slice(0, MAX_DESCRIPTION - 1)}…`;
}

/** The MCP and UCP REST lines, when the live surface is on. */
function describeLiveSearch(live: LiveEndpoints | undefined): string[] {
  if (live === undefined) return [];
  const { mcp, ucpRest } = live;
  // REST takes the `catalog` object itself as its body; MCP wraps it in `{"catalog": …}`.
  const search = JSON.stringify({ query: 'what the person asked for', pagination: { limit: 5 } });
  return [
    `- **MCP** (Streamable HTTP, stateless): \`${mcp}\`. Tools: \`search_catalog\` (arguments \`{"catalog": {"query": …, "filters": {"price": …}, "pagination": {"limit": …}}}\`, prices in minor units), \`lookup_catalog\` (\`{"catalog": {"ids": […]}}\`) and \`get_product\` (\`{"catalog": {"id": …}}\`). Results are in \`structuredContent\`.`,
    `- **UCP REST**: \`POST ${ucpRest}/catalog/search\`, \`${ucpRest}/catalog/lookup\` and \`${ucpRest}/catalog/product\` with the same \`catalog\` object as a JSON body, for example:`,
    '',
    '```sh',
    `curl -s -X POST '${ucpRest}/catalog/search' -H 'Content-Type: application/json' -d '${search}'`,
    '```',
    '',
  ];
}

function renderInstructions(config: ResolvedConfig): string {
  const merchant = escapeMarkdownInline(config.merchant.name);
  const live = liveSurface(config);
  const { catalogUrl } = catalogUrls(config);
  const policy = resolveUsagePolicy(config);
  const lines = [
    `# Shop ${merchant}`,
    '',
    `${merchant}'s catalog is public and read-only: no key, token or registration.`,
    '',
    '## Find products',
    '',
    ...describeLiveSearch(live),
    `- **Everything at once**: \`GET ${catalogUrl}\` returns every product as JSON (refreshed every 15 minutes).`,
    '',
    ...(live
      ? [
          'Prices from MCP and UCP are in minor units with their currency (2900 USD is $29.00). A product has at least one variant; the first is the featured one, and variant ids are what a checkout takes.',
          '',
        ]
      : []),
    '## Cite and link',
    '',
    `- Attribution: ${escapeMarkdownInline(policy.attribution)}`,
    '- Link each product with its own `url` from the result, and state its price and availability as the result gives them; say when the data was generated if you quote a price later.',
    '- Never invent a product, a price or a discount the catalog does not state.',
    '',
    '## Do not',
    '',
    '- Do not buy, add to cart or check out automatically: a person completes every purchase on the product page.',
    `- Do not send more than ${policy.requestsPerMinute} requests a minute; cache results instead of polling.`,
    ...(policy.allowTraining ? [] : ['- Do not use this content to train or fine-tune models.']),
    '',
    `Terms: <${policy.termsUrl}>`,
    '',
  ];
  return lines.join('\n');
}

export function buildSkillMarkdown(config: ResolvedConfig): string {
  // A fresh options object keeps gray-matter from answering out of its process-wide cache.
  return matter.stringify(
    renderInstructions(config),
    { name: skillName(config), description: describeSkill(config) },
    {},
  );
}

export function emitAgentSkills(plan: BuildPlan): Artifact[] {
  const { config } = plan;
  const name = skillName(config);
  const body = buildSkillMarkdown(config);
  const index = {
    $schema: SKILLS_SCHEMA,
    skills: [
      {
        name,
        type: 'skill-md',
        description: describeSkill(config),
        url: `/${skillFile(name)}`,
        digest: sha256Digest(body),
      },
    ],
  };
  return [
    { path: skillFile(name), mediaType: SKILL_MEDIA_TYPE, body },
    { path: SKILLS_INDEX_FILE, mediaType: 'application/json', body: stableJson(index) },
  ];
}
