/**
 * Reading OAuth parameters from a query or a form body. RFC 6749 §3.1 and §3.2: request
 * and response parameters "MUST NOT be included more than once", so a repeated parameter
 * is reported (never silently resolved to its first value). Also the scope helpers.
 */
import { invalidRequest, OAuthError } from './errors.js';
import { ISSUER_CAPABILITIES } from './metadata.js';

export type ParamSource = unknown;

/** `400 invalid_request` for a NUL character, as a page or JSON as the endpoint answers. */
export function nulRefused(name: string): OAuthError {
  return new OAuthError(400, 'invalid_request', `${name} must not contain a NUL character`, {
    render: 'auto',
  });
}

export type ParamResult = { ok: true; value: string | undefined } | { ok: false; repeated: string };

/**
 * One parameter; empty strings count as absent (RFC 6749 §3.1). A NUL character is refused
 * here, at the one door every query and form parameter passes: no OAuth parameter may hold
 * one (RFC 6749 Appendix A allows only visible ASCII in most), and PostgreSQL cannot store
 * one in text, so letting it through turned a client's mistake into a 500 there.
 */
export function readParam(source: ParamSource, name: string): ParamResult {
  if (typeof source !== 'object' || source === null) return { ok: true, value: undefined };
  const value: unknown = (source as Record<string, unknown>)[name];
  if (value === undefined || value === '') return { ok: true, value: undefined };
  if (typeof value === 'string' && value.includes('\u0000')) throw nulRefused(name);
  if (typeof value === 'string') return { ok: true, value };
  return { ok: false, repeated: name };
}

/** Reads several parameters; the first repeated one is reported. */
export function readParams<const N extends string>(
  source: ParamSource,
  names: readonly N[],
): { ok: true; values: Partial<Record<N, string>> } | { ok: false; repeated: string } {
  const values: Partial<Record<N, string>> = {};
  for (const name of names) {
    const result = readParam(source, name);
    if (!result.ok) return result;
    if (result.value !== undefined) values[name] = result.value;
  }
  return { ok: true, values };
}

/** `readParams` for the JSON endpoints (token, revocation): a repeated one is `400 invalid_request`. */
export function readUniqueParams<const N extends string>(
  source: ParamSource,
  names: readonly N[],
): Partial<Record<N, string>> {
  const read = readParams(source, names);
  if (!read.ok) throw invalidRequest(`${read.repeated} must not be repeated`);
  return read.values;
}

const SUPPORTED_SCOPES: ReadonlySet<string> = new Set(ISSUER_CAPABILITIES.scopes);

/** Splits a scope string (RFC 6749 §3.3: space-delimited, case-sensitive) into a sorted, unique list. */
export function parseScope(scope: string): string[] {
  return [...new Set(scope.split(' ').filter((s) => s !== ''))].sort();
}

export function isSupportedScope(scope: string): boolean {
  return SUPPORTED_SCOPES.has(scope);
}

export function formatScope(scopes: readonly string[]): string {
  return [...new Set(scopes)].sort().join(' ');
}

/** True when every scope in `requested` is in `granted`. */
export function isScopeSubset(requested: readonly string[], granted: readonly string[]): boolean {
  const allowed = new Set(granted);
  return requested.every((s) => allowed.has(s));
}
