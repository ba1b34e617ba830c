/**
 * Domain errors of the generator. Every failure that a user can cause or meet carries a
 * stable `code`, the data that explains it and the original error as `cause`, so the CLI
 * can map it to an exit status and tests can assert on the code rather than the wording.
 */

export type CatalogErrorCode =
  | 'CONFIG_INVALID'
  | 'FLAG_INVALID'
  | 'CONTENT_INVALID'
  | 'PRODUCT_INVALID'
  | 'UPSTREAM_HTTP'
  | 'UPSTREAM_NETWORK'
  | 'UPSTREAM_TIMEOUT'
  | 'UPSTREAM_SHAPE'
  | 'UPSTREAM_TOO_LARGE'
  | 'UPSTREAM_LIMIT'
  | 'CATALOG_SHRANK'
  | 'CATALOG_EMPTY'
  | 'HOST_LIMIT'
  | 'OUTPUT_INVALID'
  | 'PUBLISH_FAILED'
  | 'CHECK_FAILED'
  | 'SITE_UNREACHABLE';

export type ErrorDetails = Readonly<Record<string, unknown>>;

export class CatalogError extends Error {
  readonly code: CatalogErrorCode;
  readonly details: ErrorDetails;

  constructor(
    code: CatalogErrorCode,
    message: string,
    details: ErrorDetails = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'CatalogError';
    this.code = code;
    this.details = details;
  }
}

/** Exit status per CONTRACT.md: 1 for upstream trouble (last bundle kept), 2 for the user's own input. */
const exitStatusByCode: Readonly<Record<CatalogErrorCode, 1 | 2>> = {
  CONFIG_INVALID: 2,
  FLAG_INVALID: 2,
  CONTENT_INVALID: 2,
  PRODUCT_INVALID: 2,
  UPSTREAM_HTTP: 1,
  UPSTREAM_NETWORK: 1,
  UPSTREAM_TIMEOUT: 1,
  UPSTREAM_SHAPE: 1,
  UPSTREAM_TOO_LARGE: 1,
  UPSTREAM_LIMIT: 1,
  CATALOG_SHRANK: 1,
  CATALOG_EMPTY: 1,
  HOST_LIMIT: 1,
  OUTPUT_INVALID: 1,
  PUBLISH_FAILED: 1,
  CHECK_FAILED: 1,
  SITE_UNREACHABLE: 1,
};

export function exitStatusFor(error: unknown): 1 | 2 {
  return error instanceof CatalogError ? exitStatusByCode[error.code] : 1;
}

export function isCatalogError(error: unknown, code?: CatalogErrorCode): error is CatalogError {
  return error instanceof CatalogError && (code === undefined || error.code === code);
}

/** The messages of an error and its causes, outermost first, for printing once at the edge. */
export function describeErrorChain(error: unknown): string[] {
  const lines: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 8; depth++) {
    lines.push(current instanceof Error ? current.message : String(current));
    current = current instanceof Error ? current.cause : undefined;
  }
  return lines;
}
