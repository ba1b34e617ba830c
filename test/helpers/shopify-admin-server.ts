/**
 * A loopback stand-in for Shopify's Admin GraphQL API, playing a bulk operation's lifecycle
 * as Shopify documents it (API 2026-01): `bulkOperationRunQuery` answers a created
 * operation, `node(id:)` polls show it RUNNING and then COMPLETED with a result `url`, and
 * that URL serves the JSON Lines. Modes reproduce each failure: a start refused with
 * `userErrors`, THROTTLED answers with the cost extension, an operation that ends FAILED,
 * CANCELED or EXPIRED, a 401 for a wrong token. Every request is recorded with its
 * headers, so a test can check where the token went.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export type AdminMode = 'ok' | 'busy' | 'failed' | 'canceled' | 'expired' | 'empty';

export interface AdminServerOptions {
  token: string;
  /** The bulk result file's text. */
  jsonl: string;
  mode?: AdminMode;
  /** The first N GraphQL calls answer THROTTLED. */
  throttled?: number;
  /** Polls that still say RUNNING before the final status (default 1). */
  runningPolls?: number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface AdminServer {
  url: string;
  /** The GraphQL endpoint of API 2026-01. */
  endpoint: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

const OPERATION_ID = 'gid://shopify/BulkOperation/720918';
const FINAL_STATUS: Record<AdminMode, string> = {
  ok: 'COMPLETED',
  busy: 'COMPLETED',
  empty: 'COMPLETED',
  failed: 'FAILED',
  canceled: 'CANCELED',
  expired: 'EXPIRED',
};

const THROTTLED_ANSWER = {
  errors: [
    {
      message: 'Throttled',
      extensions: { code: 'THROTTLED', documentation: 'https://shopify.dev/api/usage/rate-limits' },
    },
  ],
  extensions: {
    cost: {
      requestedQueryCost: 10,
      actualQueryCost: null,
      throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 0, restoreRate: 100 },
    },
  },
};

function readBody(request: import('node:http').IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

export async function startShopifyAdminServer(options: AdminServerOptions): Promise<AdminServer> {
  const requests: RecordedRequest[] = [];
  const mode = options.mode ?? 'ok';
  let graphqlCalls = 0;
  let polls = 0;
  let base = '';
  const graphql = (query: string): unknown => {
    graphqlCalls += 1;
    if (graphqlCalls <= (options.throttled ?? 0)) return THROTTLED_ANSWER;
    if (query.includes('bulkOperationRunQuery')) {
      if (mode === 'busy') {
        return {
          data: {
            bulkOperationRunQuery: {
              bulkOperation: null,
              userErrors: [
                {
                  field: null,
                  message: `A bulk query operation for this app and shop is already in progress: ${OPERATION_ID}.`,
                },
              ],
            },
          },
        };
      }
      return {
        data: {
          bulkOperationRunQuery: { bulkOperation: { id: OPERATION_ID, status: 'CREATED' }, userErrors: [] },
        },
      };
    }
    if (query.includes('node(id')) {
      polls += 1;
      const running = polls <= (options.runningPolls ?? 1);
      const status = running ? 'RUNNING' : FINAL_STATUS[mode];
      const done = status === 'COMPLETED';
      const empty = mode === 'empty';
      return {
        data: {
          node: {
            id: OPERATION_ID,
            status,
            errorCode: status === 'FAILED' ? 'INTERNAL_SERVER_ERROR' : null,
            objectCount: String(done && !empty ? options.jsonl.split('\n').length - 1 : 0),
            fileSize: done && !empty ? String(Buffer.byteLength(options.jsonl)) : null,
            url: done && !empty ? `${base}/bulk/result.jsonl?X-Goog-Signature=stand-in-signature` : null,
          },
        },
      };
    }
    return {
      errors: [{ message: 'Field does not exist on type QueryRoot', extensions: { code: 'undefinedField' } }],
    };
  };
  const server = createServer(async (request, response) => {
    const body = await readBody(request);
    const path = request.url ?? '/';
    requests.push({ method: request.method ?? 'GET', path, headers: request.headers, body });
    if (request.method === 'GET' && path.startsWith('/bulk/result.jsonl')) {
      response.writeHead(200, { 'content-type': 'application/jsonl' });
      response.end(options.jsonl);
      return;
    }
    if (request.method !== 'POST' || path !== '/admin/api/2026-01/graphql.json') {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ errors: 'Not Found' }));
      return;
    }
    if (request.headers['x-shopify-access-token'] !== options.token) {
      response.writeHead(401, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          errors: '[API] Invalid API key or access token (unrecognized login or wrong password)',
        }),
      );
      return;
    }
    const parsed = JSON.parse(body) as { query: string };
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(graphql(parsed.query)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  base = `http://127.0.0.1:${port}`;
  return {
    url: base,
    endpoint: `${base}/admin/api/2026-01/graphql.json`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
