/**
 * UCP REST at `{base_url}/ucp`: `POST /catalog/search`, `/catalog/lookup` and
 * `/catalog/product`, each taking the same `catalog` object the MCP tools take as its JSON
 * body and answering the same payload with 200. A malformed or invalid body is 400 with
 * UCP's error response (`ucp.status: "error"` and an error message), an over-large one 413,
 * one that never ends 408 (UCP catalog REST binding: "Return HTTP 400 with
 * `request_too_large` error for requests exceeding batch size limits"). A top-level field
 * the operation does not read is answered anyway, as UCP's open objects allow, with a
 * message naming it (ignored-fields.ts).
 */
import type { z } from 'zod';
import { CatalogRequestError, getProduct, lookupCatalog, searchCatalog } from './catalog-operations.js';
import {
  fieldsOf,
  getProductRequestSchema,
  lookupRequestSchema,
  searchRequestSchema,
} from './catalog-schemas.js';
import { ignoredFieldMessages } from './ignored-fields.js';
import type { LiveData } from './live-data.js';
import { type BodyLimits, readBodyText } from './read-body.js';
import {
  LOOKUP_CAPABILITY,
  SEARCH_CAPABILITY,
  type UcpEnvelope,
  type UcpMessage,
  ucpEnvelope,
} from './ucp-types.js';

interface RestOperation {
  capability: string;
  schema: z.ZodObject;
  run(data: LiveData, body: never): Promise<{ ucp: UcpEnvelope; messages?: UcpMessage[] }>;
}

export const REST_OPERATIONS: Readonly<Record<string, RestOperation>> = {
  '/catalog/search': { capability: SEARCH_CAPABILITY, schema: searchRequestSchema, run: searchCatalog },
  '/catalog/lookup': { capability: LOOKUP_CAPABILITY, schema: lookupRequestSchema, run: lookupCatalog },
  '/catalog/product': { capability: LOOKUP_CAPABILITY, schema: getProductRequestSchema, run: getProduct },
};

function restError(
  status: number,
  capability: string,
  code: string,
  content: string,
  headers: Record<string, string> = {},
) {
  return Response.json(
    {
      ucp: ucpEnvelope(capability, 'error'),
      messages: [{ type: 'error', code, content, severity: 'recoverable' }],
    },
    { status, headers },
  );
}

export async function handleRestRequest(
  request: Request,
  operation: RestOperation,
  loadData: () => Promise<LiveData>,
  limits: BodyLimits,
): Promise<Response> {
  const { capability } = operation;
  if (request.method !== 'POST') {
    return restError(405, capability, 'method_not_allowed', 'this endpoint answers POST only', {
      Allow: 'POST',
    });
  }
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/([a-z.+-]*\+)?json\s*(;|$)/i.test(type)) {
    return restError(
      415,
      capability,
      'unsupported_media_type',
      'send the catalog object as application/json',
    );
  }
  const body = await readBodyText(request, limits);
  if (!body.ok)
    return restError(
      body.status,
      capability,
      body.status === 413 ? 'request_too_large' : 'invalid_request',
      body.reason,
    );
  let json: unknown;
  try {
    json = JSON.parse(body.text);
  } catch {
    return restError(400, capability, 'invalid_request', 'the body is not JSON');
  }
  const parsed = operation.schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? issue.path.join('.') : 'body';
    return restError(400, capability, 'invalid_request', `${where}: ${issue?.message ?? 'invalid'}`);
  }
  try {
    const answer = await operation.run(await loadData(), parsed.data as never);
    const ignored = ignoredFieldMessages(json, fieldsOf(operation.schema));
    if (ignored.length === 0) return Response.json(answer);
    return Response.json({ ...answer, messages: [...(answer.messages ?? []), ...ignored] });
  } catch (error) {
    if (error instanceof CatalogRequestError) return restError(400, capability, error.code, error.message);
    throw error;
  }
}
