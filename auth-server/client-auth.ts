/**
 * Client authentication at the token and revocation endpoints (RFC 6749 §2.3):
 * `client_secret_basic` (credentials form-urlencoded before base64, §2.3.1),
 * `client_secret_post`, or `none` for public clients, each client held to the method it
 * registered. Failure is `401 invalid_client`; RFC 6749 §5.2: when the client used the
 * Authorization header the server "MUST ... include the WWW-Authenticate response header
 * field matching the authentication scheme used by the client".
 */
import type { Request } from 'express';
import type { IssuerContext } from './context.js';
import { OAuthError } from './errors.js';
import { nulRefused, readParam } from './params.js';
import { hashSecret, secretsEqual } from './secrets.js';
import type { ClientRow } from './store/rows.js';

export interface AuthenticatedClient {
  client: ClientRow;
  method: 'client_secret_basic' | 'client_secret_post' | 'none';
}

interface Credentials {
  method: AuthenticatedClient['method'];
  clientId: string;
  secret?: string;
}

function formDecode(value: string): string | undefined {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

function invalidClient(ctx: IssuerContext, usedBasic: boolean): OAuthError {
  const headers: Record<string, string> = usedBasic
    ? { 'WWW-Authenticate': `Basic realm="${ctx.config.issuer}", charset="UTF-8"` }
    : {};
  return new OAuthError(401, 'invalid_client', 'client authentication failed', { headers });
}

function readBasic(ctx: IssuerContext, header: string): Credentials {
  const encoded = header.slice(6).trim();
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw invalidClient(ctx, true);
  const clientId = formDecode(decoded.slice(0, colon));
  const secret = formDecode(decoded.slice(colon + 1));
  if (!clientId || secret === undefined) throw invalidClient(ctx, true);
  // The form fields are checked by readParam; the header is the other way a NUL could reach the store.
  if (clientId.includes('\u0000')) throw nulRefused('client_id');
  return { method: 'client_secret_basic', clientId, secret };
}

function readCredentials(ctx: IssuerContext, req: Request): Credentials {
  const header = req.headers.authorization;
  const basic = header !== undefined && /^basic /i.test(header);
  const clientId = readParam(req.body, 'client_id');
  const secret = readParam(req.body, 'client_secret');
  if (!clientId.ok || !secret.ok)
    throw new OAuthError(400, 'invalid_request', 'client credentials must not be repeated');
  // RFC 6749 §2.3: "The client MUST NOT use more than one authentication method in each request."
  if (basic && secret.value !== undefined) {
    throw new OAuthError(400, 'invalid_request', 'use one client authentication method, not two');
  }
  if (basic && header) {
    const credentials = readBasic(ctx, header);
    if (clientId.value !== undefined && clientId.value !== credentials.clientId) {
      throw new OAuthError(400, 'invalid_request', 'client_id does not match the Authorization header');
    }
    return credentials;
  }
  if (!clientId.value) throw invalidClient(ctx, false);
  if (secret.value !== undefined)
    return { method: 'client_secret_post', clientId: clientId.value, secret: secret.value };
  return { method: 'none', clientId: clientId.value };
}

/** Authenticates the client of a token or revocation request; throws OAuthError. */
export async function authenticateClient(ctx: IssuerContext, req: Request): Promise<AuthenticatedClient> {
  const credentials = readCredentials(ctx, req);
  const usedBasic = credentials.method === 'client_secret_basic';
  const client = await ctx.store.findClient(credentials.clientId);
  if (!client || client.tokenEndpointAuthMethod !== credentials.method) throw invalidClient(ctx, usedBasic);
  if (credentials.method !== 'none') {
    const expected = client.secretHash;
    if (expected === null || !secretsEqual(hashSecret(credentials.secret ?? ''), expected)) {
      throw invalidClient(ctx, usedBasic);
    }
  }
  return { client, method: credentials.method };
}
