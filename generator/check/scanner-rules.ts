/**
 * The published rules `check`'s probes judge documents by, written from the rules
 * themselves rather than from what this generator emits, so a probe fails a document the
 * scanner would fail even when the generator produced it. Pure: each takes a parsed
 * document (or a header value) and returns the faults, empty when it passes.
 *
 * Sources: Cloudflare's agent-readiness scanner (isitagentready.com) and its published
 * skills (`/.well-known/agent-skills/auth-md/SKILL.md`: "Add an `agent_auth` block with
 * `skill`, `register_uri`, and at least one complete registration method"); the AI Catalog
 * specification (Agent-Card/ai-catalog §"Catalog Entry": `identifier`, `displayName`, the
 * media type, exactly one of `url` or `data`; ADR 0014 renamed `mediaType` to `type`) with
 * the scanner's 2 to 5 `representativeQueries` per entry; the MCP server-card extension's
 * discovery text (its AI Catalog entry is `type: application/mcp-server-card+json`);
 * RFC 8288 for Link headers; A2A 1.0 (§5.8, §4.4 AgentCard) for agent cards.
 */
import { isRecord, stringField } from '../validate/bundle-layout.js';

/** Link relations an agent can act on (RFC 9727 api-catalog, RFC 8631 service-*, describedby). */
export const AGENT_LINK_RELATIONS: readonly string[] = [
  'api-catalog',
  'service-desc',
  'service-doc',
  'service-meta',
  'describedby',
];

/**
 * The relation types of a Link header value (RFC 8288 §3): links are separated by commas
 * outside `<…>` and quoted strings; `rel` may hold several space-separated types.
 */
export function linkRelations(header: string): string[] {
  const rels: string[] = [];
  for (const link of splitLinks(header)) {
    const match = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i.exec(link);
    const value = match?.[1] ?? match?.[2];
    if (/^\s*<[^>]*>/.test(link) && value !== undefined)
      rels.push(...value.toLowerCase().split(/\s+/).filter(Boolean));
  }
  return rels;
}

function splitLinks(header: string): string[] {
  const links: string[] = [];
  let current = '';
  let inUri = false;
  let inQuote = false;
  for (const char of header) {
    if (char === '<' && !inQuote) inUri = true;
    else if (char === '>' && !inQuote) inUri = false;
    else if (char === '"' && !inUri) inQuote = !inQuote;
    if (char === ',' && !inUri && !inQuote) {
      links.push(current);
      current = '';
    } else current += char;
  }
  if (current.trim() !== '') links.push(current);
  return links;
}

const MCP_SERVER_CARD_TYPE = 'application/mcp-server-card+json';

function isServerCardUrl(url: string): boolean {
  return /\/(?:\.well-known\/mcp\/server-card\.json|server-card(?:\.json)?)$/.test(
    url.replace(/[?#].*$/, ''),
  );
}

function entryFaults(entry: unknown, label: string): string[] {
  if (!isRecord(entry)) return [`${label} is not an object`];
  const faults: string[] = [];
  for (const field of ['identifier', 'displayName']) {
    if (stringField(entry, field) === undefined) faults.push(`${label}: ${field} is missing`);
  }
  const type = stringField(entry, 'type');
  if (type === undefined) {
    faults.push(
      entry.mediaType === undefined
        ? `${label}: type is missing`
        : `${label}: uses mediaType, which the AI Catalog renamed type (ADR 0014)`,
    );
  }
  const url = stringField(entry, 'url');
  if ((url === undefined) === (entry.data === undefined))
    faults.push(`${label}: exactly one of url or data is required`);
  const queries = entry.representativeQueries;
  const valid = Array.isArray(queries) && queries.every((query) => typeof query === 'string' && query !== '');
  if (!valid || queries.length < 2 || queries.length > 5)
    faults.push(`${label}: representativeQueries must be 2 to 5 questions`);
  if (type !== undefined && url !== undefined && isServerCardUrl(url) && type !== MCP_SERVER_CARD_TYPE)
    faults.push(`${label}: the MCP server card's entry must be type ${MCP_SERVER_CARD_TYPE}`);
  return faults;
}

/** The faults of an AI Catalog document (`/.well-known/ai-catalog.json`). */
export function aiCatalogFaults(catalog: unknown): string[] {
  if (!isRecord(catalog)) return ['not a JSON object'];
  const faults: string[] = [];
  if (!/^\d+\.\d+$/.test(stringField(catalog, 'specVersion') ?? ''))
    faults.push('specVersion must be "Major.Minor"');
  if (catalog.host !== undefined && stringField(catalog.host, 'displayName') === undefined)
    faults.push('host.displayName is missing');
  if (!Array.isArray(catalog.entries) || catalog.entries.length === 0) {
    faults.push('entries must be a non-empty list');
    return faults;
  }
  catalog.entries.forEach((entry, position) => {
    const identifier = stringField(entry, 'identifier');
    faults.push(...entryFaults(entry, `entries[${position}]${identifier ? ` (${identifier})` : ''}`));
  });
  return faults;
}

const ID_JAG = 'urn:ietf:params:oauth:token-type:id-jag';

function listOf(value: unknown, key: string): unknown[] {
  const list = isRecord(value) ? value[key] : undefined;
  return Array.isArray(list) ? list : [];
}

/** The complete registration methods an agent_auth block offers, per the auth-md skill's "Flow Metadata". */
export function completeAuthMethods(agentAuth: Record<string, unknown>): string[] {
  const types = listOf(agentAuth, 'identity_types_supported');
  const assertion = agentAuth.identity_assertion;
  const assertionTypes = listOf(assertion, 'assertion_types_supported');
  const assertionCredentials = listOf(assertion, 'credential_types_supported').length > 0;
  const claim = stringField(agentAuth, 'claim_uri') !== undefined;
  const methods: string[] = [];
  if (types.includes('identity_assertion') && assertionTypes.includes(ID_JAG) && assertionCredentials)
    methods.push('ID-JAG');
  if (assertionTypes.includes('verified_email') && assertionCredentials && claim)
    methods.push('verified email');
  if (
    types.includes('anonymous') &&
    listOf(agentAuth.anonymous, 'credential_types_supported').length > 0 &&
    claim
  )
    methods.push('anonymous');
  return methods;
}

/** The faults of an authorization server metadata document's `agent_auth` block. */
export function agentAuthFaults(metadata: unknown): string[] {
  if (!isRecord(metadata)) return ['the authorization server metadata is not a JSON object'];
  if (stringField(metadata, 'issuer') === undefined)
    return ['the authorization server metadata has no issuer'];
  const agentAuth = metadata.agent_auth;
  if (!isRecord(agentAuth)) return ['the authorization server metadata has no agent_auth block'];
  const faults: string[] = [];
  for (const field of ['skill', 'register_uri']) {
    if (stringField(agentAuth, field) === undefined) faults.push(`agent_auth has no ${field}`);
  }
  if (completeAuthMethods(agentAuth).length === 0) {
    faults.push(
      'agent_auth offers no complete registration method (anonymous with anonymous.credential_types_supported and claim_uri; identity_assertion with an ID-JAG; or verified_email with claim_uri)',
    );
  }
  return faults;
}

/** A2A 1.0 §5.8: the core bindings by name; a custom binding SHOULD be a URI. */
const A2A_CORE_BINDINGS: readonly string[] = ['JSONRPC', 'GRPC', 'HTTP+JSON'];

/** The faults of an A2A 1.0 agent card (AgentCard, AgentInterface and AgentSkill's required members). */
export function a2aCardFaults(card: unknown): string[] {
  if (!isRecord(card)) return ['not a JSON object'];
  const faults: string[] = [];
  for (const field of ['name', 'description', 'version']) {
    if (stringField(card, field) === undefined) faults.push(`${field} is missing`);
  }
  for (const field of ['defaultInputModes', 'defaultOutputModes']) {
    if (listOf(card, field).length === 0) faults.push(`${field} is missing or empty`);
  }
  if (!isRecord(card.capabilities)) faults.push('capabilities is missing');
  const interfaces = listOf(card, 'supportedInterfaces');
  if (interfaces.length === 0) faults.push('supportedInterfaces is missing or empty');
  interfaces.forEach((item, position) => {
    const binding = stringField(item, 'protocolBinding') ?? '';
    if (stringField(item, 'url') === undefined)
      faults.push(`supportedInterfaces[${position}]: url is missing`);
    if (stringField(item, 'protocolVersion') === undefined)
      faults.push(`supportedInterfaces[${position}]: protocolVersion is missing`);
    if (!A2A_CORE_BINDINGS.includes(binding) && !/^[a-z][a-z0-9+.-]*:/i.test(binding))
      faults.push(
        `supportedInterfaces[${position}]: protocolBinding "${binding}" is neither ${A2A_CORE_BINDINGS.join(', ')} nor a URI (A2A 1.0 §5.8)`,
      );
  });
  const skills = listOf(card, 'skills');
  if (skills.length === 0) faults.push('skills is missing or empty');
  skills.forEach((skill, position) => {
    for (const field of ['id', 'name', 'description']) {
      if (stringField(skill, field) === undefined) faults.push(`skills[${position}]: ${field} is missing`);
    }
  });
  return faults;
}
