/**
 * `/auth.md`: the Markdown guide for agents that want a customer's delegated access
 * (WorkOS auth.md: "a short Markdown document, hosted at the root of your service … a
 * discovery-friendly companion to the structured Protected Resource Metadata"). Every
 * endpoint, scope and registration method in it is read from the issuer's own metadata
 * (`auth-server/metadata.ts`, the document the issuer serves and the site copies), and its
 * `agent_auth` block in particular, so the prose and the structured block cannot drift;
 * the gate checks that every URL of the block appears in the guide.
 */
import {
  type AgentAuthMetadata,
  agentGuideUrl,
  buildAgentAuth,
  buildAuthorizationServerMetadata,
} from '../../auth-server/metadata.js';
import type { Artifact } from '../artifact.js';
import type { ResolvedConfig } from '../config.js';
import type { BuildPlan } from '../plan.js';
import { liveSurface } from './live-endpoints.js';
import { escapeMarkdownInline } from './markdown-text.js';
import { describeAccountAccess, issuerMetadataInput } from './openapi-policy.js';
import { AUTH_MD_PATH, filePathOf } from './sitemap-pages.js';
import { resolveUsagePolicy } from './usage-policy.js';

export const AUTH_MD_FILE = filePathOf(AUTH_MD_PATH);
export const AUTH_MD_MEDIA_TYPE = 'text/markdown; charset=utf-8';

/** The agent_auth block the site's copy of the issuer metadata carries. */
export function siteAgentAuth(config: ResolvedConfig): AgentAuthMetadata {
  const input = issuerMetadataInput(config);
  return buildAgentAuth(buildAuthorizationServerMetadata(input), agentGuideUrl(input));
}

function registrationSteps(agentAuth: AgentAuthMetadata, redirect: string, cimd: boolean): string[] {
  const body = JSON.stringify({
    client_name: 'Example Agent',
    redirect_uris: [redirect],
    grant_types: ['authorization_code', 'refresh_token'],
    token_endpoint_auth_method: 'none',
  });
  const steps = [
    '## 1. Register (anonymous)',
    '',
    `- **Dynamic registration** (RFC 7591, \`register_uri\`): \`POST ${agentAuth.register_uri}\` with a JSON body, for example:`,
    '',
    '```sh',
    `curl -s -X POST '${agentAuth.register_uri}' -H 'Content-Type: application/json' -d '${body}'`,
    '```',
    '',
    '  The answer carries your `client_id` (and a `client_secret` only if you asked for a confidential client). Registration needs no identity and no approval, and grants no access by itself: the public catalog needs none.',
  ];
  if (cimd) {
    steps.push(
      '- **Client ID Metadata Document**: use the HTTPS URL of your client metadata document as `client_id`; the issuer fetches it, so no registration call is needed.',
    );
  }
  return steps;
}

export function renderAuthMd(config: ResolvedConfig): string {
  const access = describeAccountAccess(config);
  const agentAuth = siteAgentAuth(config);
  // The resource a token is for: the MCP endpoint, or the site itself without a live surface.
  const mcp = liveSurface(config)?.mcp ?? config.site_url;
  const policy = resolveUsagePolicy(config);
  const merchant = escapeMarkdownInline(config.merchant.name);
  const redirect = 'http://127.0.0.1:8976/callback';
  const lines = [
    `# auth.md: ${merchant}`,
    '',
    `How an agent gets a ${merchant} customer's consent to act on their account. The catalog itself (\`${config.base_url}/agent-catalog\`, the MCP tools \`search_catalog\`, \`lookup_catalog\`, \`get_product\`, UCP REST) needs **no** authentication; only account tools such as \`get_customer_profile\` do.`,
    '',
    `- Protected resource metadata (RFC 9728): <${access.protectedResourceMetadataUrl}>`,
    `- Authorization server metadata (RFC 8414), with the \`agent_auth\` block: <${access.authorizationServerMetadataUrl}>`,
    `- Issuer: \`${access.issuer}\``,
    `- Registration method (\`identity_types_supported\`): \`${agentAuth.identity_types_supported.join(', ')}\`. You register without an identity; a customer then claims your client by signing in and consenting at \`claim_uri\` (the authorization endpoint, authorization code flow with PKCE \`S256\`), and the credential you get is an OAuth \`${agentAuth.anonymous.credential_types_supported.join(', ')}\`. ID-JAG identity assertions, verified-email assertions and emailed one-time codes are not offered.`,
    '',
    ...registrationSteps(agentAuth, redirect, access.clientIdMetadataDocumentSupported),
    '',
    "## 2. Claim: obtain the customer's consent",
    '',
    `Send the customer's browser to \`${agentAuth.claim_uri}\` with \`response_type=code\`, your \`client_id\` and \`redirect_uri\`, \`scope\`, \`state\`, \`code_challenge\` and \`code_challenge_method=S256\` (RFC 7636), and \`resource=${mcp}\` (RFC 8707), the endpoint the token is for. The customer signs in and chooses Allow or Deny.`,
    '',
    `Then exchange the code: \`POST ${access.tokenEndpoint}\` (form-encoded) with \`grant_type=authorization_code\`, \`code\`, \`redirect_uri\`, \`code_verifier\`, \`client_id\` and the same \`resource\`.`,
    '',
    '## Scopes',
    '',
    ...access.scopes.map((scope) => `- \`${scope.name}\`: ${scope.description}`),
    '',
    '## Where tokens are accepted',
    '',
    `- \`${mcp}\`: send \`Authorization: Bearer <access token>\` (never in a URL). The token's audience is that endpoint.`,
    `- Revoke a token when you are done: \`POST ${access.revocationEndpoint}\` (RFC 7009). The customer can disconnect your client at any time from their account page.`,
    '',
    '## Rules',
    '',
    ...policy.rules.map((rule) => `- ${escapeMarkdownInline(rule.text)}`),
    '',
    `Contact: ${escapeMarkdownInline(config.merchant.contact)}`,
    '',
  ];
  return lines.join('\n');
}

export function emitAuthMd(plan: BuildPlan): Artifact[] {
  return [{ path: AUTH_MD_FILE, mediaType: AUTH_MD_MEDIA_TYPE, body: renderAuthMd(plan.config) }];
}
