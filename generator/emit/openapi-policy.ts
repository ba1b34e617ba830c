/**
 * What the API description, the documentation page and the agent card say about usage
 * and access, in one place: the `x-usage-policy` extension built from the one usage
 * policy (`usage-policy.ts`, shared with robots.txt, llms.txt and the headers), and the
 * optional account access (spec 5.2-5.5) read from the issuer's own metadata module, so
 * every endpoint URL printed anywhere is the one the issuer advertises.
 */
import {
  buildAuthorizationServerMetadata,
  ISSUER_CAPABILITIES,
  type IssuerMetadataInput,
} from '../../auth-server/metadata.js';
import type { ResolvedConfig } from '../config.js';
import type { UsagePolicy } from './usage-policy.js';

/** The `x-usage-policy` extension: the rules in a form a program can act on. */
export function buildUsageExtension(policy: UsagePolicy): Record<string, unknown> {
  return {
    attribution: policy.attribution,
    automated_purchases: false,
    model_training: policy.allowTraining,
    search: policy.allowSearch,
    ai_input: policy.allowAiInput,
    rate_limit: { requests: policy.requestsPerMinute, window_seconds: 60, comparison: 'under' },
    terms_url: policy.termsUrl,
  };
}

const SCOPE_DESCRIPTIONS: Readonly<Record<string, string>> = {
  openid: 'Sign the customer in (OpenID Connect).',
  profile: "The customer's name.",
  email: "The customer's e-mail address.",
  offline_access: 'A refresh token, to keep access without signing in again.',
};

export interface AccountAccess {
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  registrationEndpoint: string;
  revocationEndpoint: string;
  jwksUri: string;
  /** OpenID Connect Discovery §4: the issuer with `/.well-known/openid-configuration` appended. */
  openIdConfigurationUrl: string;
  /** RFC 8414 §3: the well-known suffix inserted after the issuer's host. */
  authorizationServerMetadataUrl: string;
  protectedResourceMetadataUrl: string;
  codeChallengeMethods: string[];
  /** draft-ietf-oauth-client-id-metadata-document: an https client_id with a path is fetched. */
  clientIdMetadataDocumentSupported: boolean;
  scopes: { name: string; description: string }[];
}

function metadataString(metadata: Readonly<Record<string, unknown>>, key: string): string {
  const value = metadata[key];
  if (typeof value !== 'string') throw new TypeError(`issuer metadata has no ${key}`);
  return value;
}

/** RFC 8414 §3.1: "/.well-known/oauth-authorization-server" goes between the host and any path. */
function authorizationServerMetadataUrl(issuer: string): string {
  const url = new URL(issuer);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/+$/, '');
  return `${url.origin}/.well-known/oauth-authorization-server${path}`;
}

/**
 * What the issuer builds its metadata from, as this site's config states it: its identifier
 * and the merchant's site (the issuer reads site_url from the same catalog config), so the
 * site's copies equal what the issuer serves.
 */
export function issuerMetadataInput(config: ResolvedConfig): IssuerMetadataInput {
  return { issuer: config.auth_url, siteUrl: config.site_url };
}

export function describeAccountAccess(config: ResolvedConfig): AccountAccess {
  const issuer = config.auth_url;
  const metadata = buildAuthorizationServerMetadata(issuerMetadataInput(config));
  return {
    issuer,
    authorizationEndpoint: metadataString(metadata, 'authorization_endpoint'),
    tokenEndpoint: metadataString(metadata, 'token_endpoint'),
    registrationEndpoint: metadataString(metadata, 'registration_endpoint'),
    revocationEndpoint: metadataString(metadata, 'revocation_endpoint'),
    jwksUri: metadataString(metadata, 'jwks_uri'),
    openIdConfigurationUrl: `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`,
    authorizationServerMetadataUrl: authorizationServerMetadataUrl(issuer),
    protectedResourceMetadataUrl: `${config.site_url}/.well-known/oauth-protected-resource`,
    codeChallengeMethods: [...ISSUER_CAPABILITIES.codeChallengeMethods],
    clientIdMetadataDocumentSupported: metadata.client_id_metadata_document_supported === true,
    scopes: ISSUER_CAPABILITIES.scopes.map((name) => ({
      name,
      description: SCOPE_DESCRIPTIONS[name] ?? name,
    })),
  };
}
