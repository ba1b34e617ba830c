/**
 * Resource indicators (RFC 8707): which protected resources a token may be used at. A client
 * names them with `resource` at the authorization and token endpoints; each must be one of
 * the resources this issuer serves (config `resources`), the set asked for at authorization
 * is bound to the grant, and a token request may pick a subset of it but never add to it.
 * The access token's `aud` is the resource (or resources) it is for. A request that names
 * none gets today's behaviour: the default audience (the issuer itself, i.e. userinfo).
 */
import { OAuthError } from './errors.js';
import { nulRefused } from './params.js';

/** The most resources one request may name; a real client names one. */
const MAX_RESOURCES = 10;
const MAX_LENGTH = 2000;

/** RFC 8707 §2: `invalid_target`, "the requested resource is invalid, missing, unknown, or malformed". */
export class InvalidTargetError extends Error {
  readonly error = 'invalid_target';
}

/**
 * The `resource` values of a query or form (RFC 8707 §2: the parameter "can be used
 * multiple times"), unique and in the order given; an empty list when there is none.
 */
export function readResources(source: unknown): string[] {
  if (typeof source !== 'object' || source === null) return [];
  const raw: unknown = (source as Record<string, unknown>).resource;
  if (raw === undefined || raw === '') return [];
  const values: unknown[] = Array.isArray(raw) ? raw : [raw];
  if (!values.every((v): v is string => typeof v === 'string'))
    throw new InvalidTargetError('resource is malformed');
  if (values.some((v) => v.includes('\u0000'))) throw nulRefused('resource');
  if (values.length > MAX_RESOURCES) throw new InvalidTargetError('too many resource values');
  return [...new Set(values)];
}

/**
 * Checks every requested resource against the served ones, by exact string comparison (no
 * normalisation: the token's `aud` is what the resource server compares with its own URL).
 */
export function checkServedResources(requested: readonly string[], served: readonly string[]): void {
  for (const resource of requested) {
    if (resource.length > MAX_LENGTH || resource.includes('#'))
      throw new InvalidTargetError('resource must be an absolute URI without a fragment');
    // RFC 8707 §2: the value "MUST be an absolute URI".
    if (!URL.canParse(resource)) throw new InvalidTargetError('resource must be an absolute URI');
    if (!served.includes(resource))
      throw new InvalidTargetError(`this issuer does not serve the resource ${resource.slice(0, 200)}`);
  }
}

/** The stored form of a resource list: space-separated (a URI holds no space), null for none. */
export function formatResources(resources: readonly string[]): string | null {
  return resources.length === 0 ? null : resources.join(' ');
}

/** What a grant allows: its resources, or the default audience when the request named none. */
export function grantedResources(stored: string | null, defaultAudience: string): string[] {
  return stored === null ? [defaultAudience] : stored.split(' ').filter((r) => r !== '');
}

/**
 * The audience of a token minted from a grant: the resources the token request named, which
 * must all be in the grant (RFC 8707 §2.2: a refresh may narrow, never widen), else the
 * grant's own. Throws OAuthError `invalid_target`.
 */
export function chooseAudience(requested: readonly string[], granted: readonly string[]): string[] {
  const outside = requested.find((r) => !granted.includes(r));
  if (outside !== undefined) {
    throw new OAuthError(
      400,
      'invalid_target',
      `the resource ${outside.slice(0, 200)} was not granted; a token may be narrowed to a granted resource, never widened`,
    );
  }
  return requested.length > 0 ? [...requested] : [...granted];
}

/** Reads and checks a token request's `resource` values; throws OAuthError `invalid_target`. */
export function readTokenResources(source: unknown, served: readonly string[]): string[] {
  try {
    const requested = readResources(source);
    checkServedResources(requested, served);
    return requested;
  } catch (error) {
    if (error instanceof InvalidTargetError) throw new OAuthError(400, 'invalid_target', error.message);
    throw error;
  }
}
