/**
 * The MCP server of the catalog: an `McpServer` from the official SDK with the three UCP
 * catalog tools (`search_catalog`, `lookup_catalog`, `get_product`), each read-only, its
 * answer in `structuredContent` and mirrored as a JSON text block (MCP 2025-06-18,
 * "Structured Content": "a tool that returns structured content SHOULD also return the
 * serialized JSON in a TextContent block"). Built per request: the transport is stateless.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import { getProduct, lookupCatalog, searchCatalog } from './catalog-operations.js';
import {
  getProductResponseSchema,
  getProductToolInput,
  lookupResponseSchema,
  lookupToolInput,
  searchResponseSchema,
  searchToolInput,
} from './catalog-schemas.js';
import type { LiveData } from './live-data.js';

export const TOOL_NAMES = ['search_catalog', 'lookup_catalog', 'get_product'] as const;

/**
 * The SDK validates elicitation answers with a JSON Schema validator, by default a fresh Ajv
 * per server, which here means per request, and Ajv compiles with `new Function`, which
 * Workers forbid. This server never elicits, so its validator refuses everything.
 */
const NO_ELICITATION: jsonSchemaValidator = {
  getValidator: () => () => ({
    valid: false,
    data: undefined,
    errorMessage: 'this server asks no questions',
  }),
};

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

function answer(value: Record<string, unknown>): CallToolResult {
  return { structuredContent: value, content: [{ type: 'text', text: JSON.stringify(value) }] };
}

export function createCatalogMcpServer(data: LiveData): McpServer {
  const { server: info, instructions } = data.manifest;
  const server = new McpServer(
    { name: info.name, title: info.title, version: info.version },
    { instructions, capabilities: { tools: { listChanged: false } }, jsonSchemaValidator: NO_ELICITATION },
  );
  server.registerTool(
    'search_catalog',
    {
      title: 'Search the catalog',
      description:
        "Searches the merchant's products by free text (name, brand, category, description, options, tags) with optional filters: price range in minor units, categories, availability. Returns UCP products with variants, prices in minor units, and a cursor for the next page.",
      inputSchema: searchToolInput,
      outputSchema: searchResponseSchema,
      annotations: { title: 'Search the catalog', ...READ_ONLY },
    },
    async ({ catalog }) => answer(await searchCatalog(data, catalog)),
  );
  server.registerTool(
    'lookup_catalog',
    {
      title: 'Look up products by id',
      description:
        'Returns the products for up to 50 product or variant ids, each variant saying which requested id it answers; unknown ids are left out with an info message.',
      inputSchema: lookupToolInput,
      outputSchema: lookupResponseSchema,
      annotations: { title: 'Look up products by id', ...READ_ONLY },
    },
    async ({ catalog }) => answer(await lookupCatalog(data, catalog)),
  );
  server.registerTool(
    'get_product',
    {
      title: 'Get one product',
      description:
        'Returns one product in full by its product id or variant id; for a variant id that variant comes first. An unknown id answers with ucp.status "error" and a not_found message.',
      inputSchema: getProductToolInput,
      outputSchema: getProductResponseSchema,
      annotations: { title: 'Get one product', ...READ_ONLY },
    },
    async ({ catalog }) => answer(await getProduct(data, catalog)),
  );
  return server;
}
