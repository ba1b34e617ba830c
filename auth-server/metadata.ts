/**
 * The issuer's discovery metadata (RFC 8414 and OpenID Connect Discovery 1.0) as a pure
 * function of its identifier. The issuer serves it and the generator publishes the copies
 * on {site_url}; this is the one module the two share, so the copies cannot drift.
 * `ISSUER_CAPABILITIES` is also what the issuer enforces: advertising a value here that
 * the endpoints refuse (or the reverse) is a bug, and a test checks the two agree.
 */
import { userinfoEndpointOf } from '../access-token/resource-urls.js';

export const ISSUER_CAPABILITIES = {
  scopes: ['openid', 'profile', 'email', 'offline_access'],
  responseTypes: ['code'],
  responseModes: ['query'],
  grantTypes: ['authorization_code', 'refresh_token'],
  codeChallengeMethods: ['S256'],
  tokenEndpointAuthMethods: ['none', 'client_secret_basic', 'client_secret_post'],
  idTokenSigningAlgs: ['RS256'],
  accessTokenSigningAlg: 'ES256',
  subjectTypes: ['public'],
  prompts: ['none', 'login', 'consent'],
  claims: ['sub', 'iss', 'aud', 'exp', 'iat', 'auth_time', 'nonce', 'name', 'email', 'email_verified'],
} as const;

export interface IssuerMetadataInput {
  /** The issuer identifier exactly as configured; every endpoint is built from it. */
  issuer: string;
  /** Human-readable documentation of the issuer's policies; default: the issuer's own /docs page. */
  serviceDocumentation?: string;
}

/**
 * The `agent_auth` block (WorkOS auth.md: "Authorization Server Metadata … carries the
 * agent_auth block", the structured side of the site's `/auth.md`): how an agent gets a
 * customer's delegated access here. This issuer offers the standard path only: the client
 * registers itself (RFC 7591 dynamic registration, or a Client ID Metadata Document when
 * the metadata says so), then a signed-in customer consents in an authorization code flow
 * with PKCE. auth.md's other flows (ID-JAG assertions, OTP claims) are not offered, so the
 * block names no `claim_uri`.
 */
export interface AgentAuthMetadata {
  readonly register_uri: string;
  readonly revocation_uri: string;
  readonly registration_methods_supported: readonly string[];
  readonly flows_supported: readonly string[];
  readonly identity_types_supported: readonly string[];
  readonly pkce_required: boolean;
}

export type IssuerMetadata = Readonly<
  Record<string, string | boolean | readonly string[] | AgentAuthMetadata>
>;

/** The agent_auth block of a metadata document, built from the document's own endpoints. */
export function buildAgentAuth(metadata: IssuerMetadata): AgentAuthMetadata {
  const text = (key: string): string => {
    const value = metadata[key];
    if (typeof value !== 'string') throw new TypeError(`issuer metadata has no ${key}`);
    return value;
  };
  return {
    register_uri: text('registration_endpoint'),
    revocation_uri: text('revocation_endpoint'),
    registration_methods_supported: [
      'dynamic_client_registration',
      ...(metadata.client_id_metadata_document_supported === true ? ['client_id_metadata_document'] : []),
    ],
    flows_supported: ['authorization_code'],
    // Tokens act for a signed-in customer who consented; there is no agent-only identity.
    identity_types_supported: ['user'],
    pkce_required: true,
  };
}

function endpoint(issuer: string, path: string): string {
  return `${issuer.replace(/\/+$/, '')}${path}`;
}

/** RFC 8414 §2 authorization server metadata, with the agent_auth block last. */
export function buildAuthorizationServerMetadata(input: IssuerMetadataInput): IssuerMetadata {
  const metadata = buildRfc8414Fields(input);
  return { ...metadata, agent_auth: buildAgentAuth(metadata) };
}

function buildRfc8414Fields(input: IssuerMetadataInput): IssuerMetadata {
  const { issuer } = input;
  const caps = ISSUER_CAPABILITIES;
  return {
    issuer,
    authorization_endpoint: endpoint(issuer, '/oauth/authorize'),
    token_endpoint: endpoint(issuer, '/oauth/token'),
    jwks_uri: endpoint(issuer, '/.well-known/jwks.json'),
    registration_endpoint: endpoint(issuer, '/oauth/clients/register'),
    revocation_endpoint: endpoint(issuer, '/oauth/revoke'),
    userinfo_endpoint: userinfoEndpointOf(issuer),
    end_session_endpoint: endpoint(issuer, '/oauth/logout'),
    scopes_supported: caps.scopes,
    response_types_supported: caps.responseTypes,
    response_modes_supported: caps.responseModes,
    grant_types_supported: caps.grantTypes,
    code_challenge_methods_supported: caps.codeChallengeMethods,
    token_endpoint_auth_methods_supported: caps.tokenEndpointAuthMethods,
    revocation_endpoint_auth_methods_supported: caps.tokenEndpointAuthMethods,
    authorization_response_iss_parameter_supported: true,
    // draft-ietf-oauth-client-id-metadata-document: an https client_id with a path is fetched.
    client_id_metadata_document_supported: true,
    // The /docs page states the policies a client cannot infer from this document, notably
    // that refresh tokens end when the customer signs out (spec 5.5), unlike OpenID's usual
    // offline_access meaning.
    service_documentation: input.serviceDocumentation ?? endpoint(issuer, '/docs'),
  };
}

/** OpenID Connect Discovery 1.0 §3: the RFC 8414 fields plus the OpenID-specific ones. */
export function buildOpenIdConfiguration(input: IssuerMetadataInput): IssuerMetadata {
  const caps = ISSUER_CAPABILITIES;
  return {
    ...buildAuthorizationServerMetadata(input),
    subject_types_supported: caps.subjectTypes,
    id_token_signing_alg_values_supported: caps.idTokenSigningAlgs,
    claims_supported: caps.claims,
    prompt_values_supported: caps.prompts,
    claims_parameter_supported: false,
    request_parameter_supported: false,
    request_uri_parameter_supported: false,
  };
}
