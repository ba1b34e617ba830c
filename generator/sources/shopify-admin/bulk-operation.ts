/**
 * A bulk operation's lifecycle: start it (`bulkOperationRunQuery`), poll it by id until it
 * completes, and return where its JSON Lines result is. A failed, cancelled or expired
 * operation, or a start Shopify refuses (`userErrors`, e.g. too many operations already
 * running), is an upstream error, so the build exits 1 and keeps the last good bundle.
 * Polling backs off from one second to ten and stops at the client's deadline
 * (`upstream.timeout_ms`) or after `MAX_POLLS`, whichever comes first.
 */
import { CatalogError } from '../../errors.js';
import { redactUrl } from '../../http/redact-url.js';
import { BULK_PRODUCTS_QUERY, POLL_BULK_OPERATION, RUN_BULK_QUERY } from './bulk-query.js';
import { type AdminGraphql, callAdminGraphql } from './graphql-call.js';

export interface CompletedBulkOperation {
  id: string;
  /** The result file's URL; null when the query matched no object at all. */
  url: string | null;
  objectCount: number;
  /** The result file's size in bytes, as Shopify reports it (0 when unknown). */
  fileSize: number;
}

export interface PollPolicy {
  firstDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_POLL_POLICY: PollPolicy = { firstDelayMs: 1_000, maxDelayMs: 10_000 };
/** An upper bound on the polling loop whatever the deadline (a day of 10-second polls). */
export const MAX_POLLS = 8_640;

const RUNNING = new Set(['CREATED', 'RUNNING', 'CANCELING']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function shapeError(url: string, what: string): CatalogError {
  return new CatalogError('UPSTREAM_SHAPE', `the Admin API at ${url} answered ${what}`, { url, status: 200 });
}

async function startBulkOperation(api: AdminGraphql): Promise<string> {
  const url = redactUrl(api.endpoint.href);
  const data = await callAdminGraphql(api, RUN_BULK_QUERY, { query: BULK_PRODUCTS_QUERY });
  const payload = data.bulkOperationRunQuery;
  if (!isRecord(payload)) throw shapeError(url, 'no bulkOperationRunQuery payload');
  const userErrors = Array.isArray(payload.userErrors) ? payload.userErrors.filter(isRecord) : [];
  if (userErrors.length > 0) {
    const messages = userErrors.map((error) => String(error.message ?? 'an error').slice(0, 200)).join('; ');
    throw new CatalogError(
      'UPSTREAM_HTTP',
      `the Admin API at ${url} refused to start the product export: ${messages}`,
      {
        url,
        status: 200,
      },
    );
  }
  const operation = payload.bulkOperation;
  if (!isRecord(operation) || typeof operation.id !== 'string' || operation.id === '') {
    throw shapeError(url, 'a started export without an id');
  }
  return operation.id;
}

function readCompleted(node: Record<string, unknown>, id: string): CompletedBulkOperation {
  return {
    id,
    url: typeof node.url === 'string' && node.url !== '' ? node.url : null,
    objectCount: Number(node.objectCount ?? 0) || 0,
    fileSize: Number(node.fileSize ?? 0) || 0,
  };
}

async function pollOnce(api: AdminGraphql, id: string): Promise<Record<string, unknown>> {
  const data = await callAdminGraphql(api, POLL_BULK_OPERATION, { id });
  if (!isRecord(data.node) || typeof data.node.status !== 'string') {
    throw shapeError(redactUrl(api.endpoint.href), `no bulk operation ${id} when polled`);
  }
  return data.node;
}

/** Starts the products export and waits for it; see the module comment for what fails how. */
export async function runBulkExport(
  api: AdminGraphql,
  policy: PollPolicy = DEFAULT_POLL_POLICY,
): Promise<CompletedBulkOperation> {
  const url = redactUrl(api.endpoint.href);
  const id = await startBulkOperation(api);
  let delay = policy.firstDelayMs;
  for (let poll = 0; poll < MAX_POLLS; poll++) {
    await api.sleep(delay);
    delay = Math.min(policy.maxDelayMs, Math.ceil(delay * 1.5));
    const node = await pollOnce(api, id);
    const status = String(node.status);
    if (status === 'COMPLETED') return readCompleted(node, id);
    if (RUNNING.has(status)) continue;
    const errorCode = typeof node.errorCode === 'string' ? node.errorCode : undefined;
    throw new CatalogError(
      errorCode === 'TIMEOUT' ? 'UPSTREAM_TIMEOUT' : 'UPSTREAM_HTTP',
      `the Admin API's product export ${id} ended ${status}${errorCode ? ` (${errorCode})` : ''} at ${url}; the last good bundle is kept, try again later`,
      { url, status: 200, operation: status, ...(errorCode ? { errorCode } : {}) },
    );
  }
  throw new CatalogError(
    'UPSTREAM_TIMEOUT',
    `the Admin API's product export ${id} did not finish after ${MAX_POLLS} polls`,
    {
      url,
    },
  );
}
