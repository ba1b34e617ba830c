/**
 * CONTRACT.md "Public URLs", catalog side, spelled out here from the contract rather than
 * taken from the generator, so tests that serve a bundle check the contract's list and not
 * the code's own idea of it. `base` is the base URL's path ('' at the root).
 */
export function contractPaths(base: string, merchantSlug: string): string[] {
  return [
    `${base}/agent-catalog`,
    `${base}/agent-catalog/health`,
    '/api/openapi.json',
    '/api/',
    '/kb/products.json',
    `/kb/${merchantSlug}-knowledge-base.md`,
    '/feed.xml',
    '/sitemap.xml',
    '/llms.txt',
    '/llms-full.txt',
    '/robots.txt',
    '/.well-known/oauth-protected-resource',
    // CONTRACT "Issuer additions for MCP clients": the MCP endpoint's metadata, path inserted.
    `/.well-known/oauth-protected-resource${base}/mcp`,
    '/.well-known/oauth-authorization-server',
    '/.well-known/openid-configuration',
    '/.well-known/api-catalog',
    '/.well-known/agent.json',
    '/.well-known/agent-card.json',
    '/.well-known/tdmrep.json',
    // With the live surface on (the default): the UCP business profile.
    '/.well-known/ucp',
    '/.well-known/ai-catalog.json',
    '/.well-known/agent-skills/index.json',
    `/.well-known/agent-skills/shop-${merchantSlug}/SKILL.md`,
    '/.well-known/mcp/server-card.json',
    `${base}/mcp/server-card`,
    '/auth.md',
    '/api/index.md',
  ];
}

/**
 * CONTRACT.md: "the feeds the merchant turns on (… the OpenAI product feed and the ACP feed
 * with their manifests)", for a bundle whose config turns both on and whose catalog fits one
 * shard.
 */
export const AGENT_FEED_PATHS: readonly string[] = [
  '/feeds/openai/manifest.json',
  '/feeds/openai/shards/products-0001.jsonl.gz',
  '/feeds/openai/shards/products-0001.csv.gz',
  '/feeds/acp/metadata.json',
  '/feeds/acp/products.jsonl',
];
