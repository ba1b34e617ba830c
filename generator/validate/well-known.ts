/**
 * Checks of the `.well-known` documents: the protected resource metadata against RFC
 * 9728, the issuer metadata copies against the issuer's own module (they must be what
 * the issuer serves, byte for byte in meaning), the API catalog's linkset shape (RFC
 * 9264 §4.2, RFC 9727), the two agent cards being one document, and all of them naming
 * the same site, issuer and catalog as the API description.
 */
import { isDeepStrictEqual } from 'node:util';
import { mcpEndpointOf, protectedResourceMetadataUrlOf } from '../../access-token/resource-urls.js';
import {
  buildAuthorizationServerMetadata,
  buildOpenIdConfiguration,
  ISSUER_CAPABILITIES,
} from '../../auth-server/metadata.js';
import { MANIFEST_PATH } from '../../live/live-files.js';
import { a2aCardFaults } from '../check/scanner-rules.js';
import {
  AGENT_CARD_FILE,
  AGENT_FILE,
  API_CATALOG_FILE,
  AUTHORIZATION_SERVER_FILE,
  isRecord,
  locateDocuments,
  OPENID_CONFIGURATION_FILE,
  PROTECTED_RESOURCE_FILE,
  parseJson,
  stringField,
} from './bundle-layout.js';
import { checkLinkset } from './linkset.js';
import type { BundleFiles, Problem } from './problem.js';

type Report = (message: string) => void;

/** The parsed document, or undefined after reporting it missing (bad JSON is reported elsewhere). */
function readDocument(
  files: BundleFiles,
  path: string,
  problems: Problem[],
): Record<string, unknown> | undefined {
  const parsed = parseJson(files, path);
  if (parsed === undefined) {
    problems.push({ path, rule: 'missing', message: 'the document is missing' });
    return undefined;
  }
  if (!parsed.ok) return undefined;
  if (!isRecord(parsed.value)) {
    problems.push({ path, rule: 'well-known', message: 'expected a JSON object' });
    return undefined;
  }
  return parsed.value;
}

function reporter(problems: Problem[], path: string, rule: string): Report {
  return (message) => problems.push({ path, rule, message });
}

function checkProtectedResource(document: Record<string, unknown>, report: Report): string | undefined {
  const resource = stringField(document, 'resource');
  if (resource === undefined || !URL.canParse(resource)) {
    report('resource is not an absolute URL');
  } else if (new URL(resource).hash !== '' || resource.includes('#')) {
    report('resource has a fragment (RFC 9728 §2 forbids one)');
  }
  const servers = document.authorization_servers;
  if (!Array.isArray(servers) || servers.length === 0 || !servers.every((s) => typeof s === 'string')) {
    report('authorization_servers is not a non-empty list of issuer identifiers');
  }
  // Spec 5.5: "Never place a token in a URL." Only the header method may be advertised.
  if (!isDeepStrictEqual(document.bearer_methods_supported, ['header'])) {
    report('bearer_methods_supported is not exactly ["header"]');
  }
  const scopes = document.scopes_supported;
  const known: readonly string[] = ISSUER_CAPABILITIES.scopes;
  if (
    !Array.isArray(scopes) ||
    !scopes.every((scope) => typeof scope === 'string' && known.includes(scope))
  ) {
    report(`scopes_supported must list only scopes the issuer supports (${known.join(', ')})`);
  }
  const documentation = stringField(document, 'resource_documentation');
  if (resource !== undefined && documentation !== undefined && !documentation.startsWith(`${resource}/`)) {
    report(`resource_documentation ${documentation} is not under the resource ${resource}`);
  }
  return Array.isArray(servers) && typeof servers[0] === 'string' ? servers[0] : undefined;
}

function checkIssuerCopy(
  document: Record<string, unknown>,
  expectedIssuer: string | undefined,
  siteUrl: string | undefined,
  build: typeof buildAuthorizationServerMetadata,
  report: Report,
): void {
  const issuer = stringField(document, 'issuer');
  if (issuer === undefined) {
    report('issuer is missing');
    return;
  }
  if (expectedIssuer !== undefined && issuer !== expectedIssuer) {
    report(
      `issuer ${issuer} is not the authorization server ${expectedIssuer} named by the resource metadata`,
    );
  }
  const serviceDocumentation = stringField(document, 'service_documentation');
  // The issuer builds its copy with the merchant's site too: agent_auth.skill is {site_url}/auth.md.
  const expected = build({
    issuer,
    ...(serviceDocumentation ? { serviceDocumentation } : {}),
    ...(siteUrl ? { siteUrl } : {}),
  });
  if (!isDeepStrictEqual(document, expected)) {
    report('differs from the metadata the issuer itself serves (auth-server/metadata.ts)');
  }
}

/**
 * The A2A card exists only with the live surface (its `_live/manifest.json`), whose handler
 * serves the A2A endpoint the card names; it follows A2A 1.0 (scanner-rules.ts) and names
 * `{base_url}/a2a` over JSONRPC.
 */
const LIVE_SERVER_CARD_FILE = '.well-known/mcp/server-card.json';

function checkAgentCards(files: BundleFiles, baseUrl: string | undefined, problems: Problem[]): void {
  // A site does not expose `_live/`; its MCP server card says the live surface is on too.
  if (!files.has(MANIFEST_PATH) && !files.has(LIVE_SERVER_CARD_FILE)) {
    for (const path of [AGENT_FILE, AGENT_CARD_FILE]) {
      if (files.has(path))
        problems.push({
          path,
          rule: 'well-known',
          message: 'an A2A card without the live handler that serves it',
        });
    }
    return;
  }
  const agent = readDocument(files, AGENT_FILE, problems);
  const card = readDocument(files, AGENT_CARD_FILE, problems);
  if (agent && card && !isDeepStrictEqual(agent, card)) {
    problems.push({ path: AGENT_CARD_FILE, rule: 'well-known', message: `differs from ${AGENT_FILE}` });
  }
  if (!agent) return;
  const report = reporter(problems, AGENT_FILE, 'well-known');
  for (const fault of a2aCardFaults(agent)) report(fault);
  if (!isRecord(agent.provider) || stringField(agent.provider, 'organization') === undefined) {
    report('provider.organization is missing');
  }
  const interfaces = Array.isArray(agent.supportedInterfaces) ? agent.supportedInterfaces : [];
  const a2a = baseUrl === undefined ? undefined : `${baseUrl}/a2a`;
  const served = interfaces.some(
    (entry) => stringField(entry, 'url') === a2a && stringField(entry, 'protocolBinding') === 'JSONRPC',
  );
  if (a2a !== undefined && !served) report(`no supported interface is the JSONRPC endpoint ${a2a}`);
}

/**
 * The MCP endpoint's own metadata (RFC 9728 §3.1, path inserted): the same rules, its
 * `resource` exactly `{base_url}/mcp` (what clients send as RFC 8707 `resource`, and what
 * tokens' `aud` must equal), and the same issuer as the site's.
 */
function checkMcpProtectedResource(
  files: BundleFiles,
  baseUrl: string,
  issuer: string | undefined,
  problems: Problem[],
): void {
  const endpoint = mcpEndpointOf(baseUrl);
  const path = `${new URL(protectedResourceMetadataUrlOf(endpoint)).pathname.slice(1)}.json`;
  const document = readDocument(files, path, problems);
  if (!document) return;
  const report = reporter(problems, path, 'rfc9728');
  checkProtectedResource(document, report);
  if (document.resource !== endpoint) report(`resource is not the MCP endpoint ${endpoint}`);
  if (issuer !== undefined && !isDeepStrictEqual(document.authorization_servers, [issuer]))
    report(`authorization_servers is not [${issuer}], the site's issuer`);
}

export function checkWellKnown(files: BundleFiles): Problem[] {
  const problems: Problem[] = [];
  const { baseUrl, siteUrl } = locateDocuments(files);
  const catalogUrl = baseUrl ? `${baseUrl}/agent-catalog` : undefined;
  const resourceMetadata = readDocument(files, PROTECTED_RESOURCE_FILE, problems);
  const issuer = resourceMetadata
    ? checkProtectedResource(resourceMetadata, reporter(problems, PROTECTED_RESOURCE_FILE, 'rfc9728'))
    : undefined;
  if (siteUrl !== undefined && baseUrl !== undefined && !`${baseUrl}/`.startsWith(`${siteUrl}/`)) {
    problems.push({
      path: PROTECTED_RESOURCE_FILE,
      rule: 'consistency',
      message: `the API's server ${baseUrl} is not under the resource ${siteUrl}`,
    });
  }
  // Required only of a bundle with the live surface (its `_live/manifest.json`); one without it has no MCP endpoint.
  if (baseUrl !== undefined && files.has(MANIFEST_PATH))
    checkMcpProtectedResource(files, baseUrl, issuer, problems);
  const authorizationServer = readDocument(files, AUTHORIZATION_SERVER_FILE, problems);
  if (authorizationServer) {
    const report = reporter(problems, AUTHORIZATION_SERVER_FILE, 'rfc8414');
    checkIssuerCopy(authorizationServer, issuer, siteUrl, buildAuthorizationServerMetadata, report);
  }
  const openIdConfiguration = readDocument(files, OPENID_CONFIGURATION_FILE, problems);
  if (openIdConfiguration) {
    const report = reporter(problems, OPENID_CONFIGURATION_FILE, 'openid-discovery');
    checkIssuerCopy(openIdConfiguration, issuer, siteUrl, buildOpenIdConfiguration, report);
  }
  const apiCatalog = readDocument(files, API_CATALOG_FILE, problems);
  if (apiCatalog) {
    const expected = catalogUrl && siteUrl ? { catalogUrl, siteUrl } : undefined;
    checkLinkset(apiCatalog, expected, reporter(problems, API_CATALOG_FILE, 'linkset'));
  }
  checkAgentCards(files, baseUrl, problems);
  return problems;
}
