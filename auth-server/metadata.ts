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
  /**
   * The merchant's site (`site_url`, an origin), whose `/auth.md` is the agent guide the
   * `agent_auth` block names as its `skill`; without it, the issuer's own /docs page.
   */
  siteUrl?: string;
}

/**
 * The `agent_auth` block (WorkOS auth.md, the reference repository's README and AUTH.md,
 * "Discovery"): how an agent registers here, in the format's own terms. auth.md defines
 * three registration methods (identity_types_supported): `anonymous`, and
 * `identity_assertion` with an ID-JAG or a verified email. This issuer offers the one its
 * endpoints really implement: **anonymous**. A client registers itself with no identity and
 * no approval (RFC 7591 dynamic registration at `register_uri`, or a Client ID Metadata
 * Document), and a customer later takes ownership at `claim_uri`, the authorization
 * endpoint, where they sign in and consent (authorization code with PKCE); what the agent
 * then holds is an OAuth access token. The registration itself grants no pre-claim access:
 * the public catalog needs none. ID-JAG assertions and emailed one-time codes are not
 * offered. auth.md's `revocation_uri` is where an agent provider posts a `logout+jwt`, which
 * this issuer does not accept, so the block has none; RFC 7009 revocation stays in
 * `revocation_endpoint`. Cloudflare's scanner (its auth-md skill) asks for `skill`,
 * `register_uri` and one complete method; anonymous is complete with
 * `anonymous.credential_types_supported` and `claim_uri`.
 */
export interface AgentAuthMetadata {
  readonly skill: string;
  readonly register_uri: string;
  readonly claim_uri: string;
  readonly identity_types_supported: readonly ['anonymous'];
  readonly anonymous: { readonly credential_types_supported: readonly ['access_token'] };
}

export type IssuerMetadata = Readonly<
  Record<string, string | boolean | readonly string[] | AgentAuthMetadata>
>;

/** The agent_auth block of a metadata document, built from the document's own endpoints. */
export function buildAgentAuth(metadata: IssuerMetadata, skill: string): AgentAuthMetadata {
  const text = (key: string): string => {
    const value = metadata[key];
    if (typeof value !== 'string') throw new TypeError(`issuer metadata has no ${key}`);
    return value;
  };
  return {
    skill,
    register_uri: text('registration_endpoint'),
    claim_uri: text('authorization_endpoint'),
    identity_types_supported: ['anonymous'],
    anonymous: { credential_types_supported: ['access_token'] },
  };
}

/** The URL of the agent guide: the site's /auth.md, else the issuer's /docs page. */
export function agentGuideUrl(input: IssuerMetadataInput): string {
  return input.siteUrl === undefined ? endpoint(input.issuer, '/docs') : endpoint(input.siteUrl, '/auth.md');
}

function endpoint(issuer: string, path: string): string {
  return `${issuer.replace(/\/+$/, '')}${path}`;
}

/** RFC 8414 §2 authorization server metadata, with the agent_auth block last. */
export function buildAuthorizationServerMetadata(input: IssuerMetadataInput): IssuerMetadata {
  const metadata = buildRfc8414Fields(input);
  return { ...metadata, agent_auth: buildAgentAuth(metadata, agentGuideUrl(input)) };
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
