/**
 * The gate for the agent-discovery documents: the agent skills index (v0.2.0 shape, skill
 * names, and each `digest` equal to the SHA-256 of the bytes the bundle serves at its
 * `url`), the MCP server cards (the current one against the extension's published schema,
 * vendored; the scanner's older shape stating the same server), the AI catalog (its
 * published rules in `check/scanner-rules.ts`, unique identifiers, and every entry's URL on
 * this site served by the bundle) and auth.md (every URL of the `agent_auth` block in the guide). A bundle without
 * a document is not checked for it here; `check`'s probes report what is missing.
 */
import matter from 'gray-matter';
import { aiCatalogFaults } from '../check/scanner-rules.js';
import { SKILL_NAME, SKILLS_INDEX_FILE, SKILLS_SCHEMA, sha256Digest } from '../emit/agent-skills.js';
import { AI_CATALOG_FILE } from '../emit/ai-catalog.js';
import { AUTH_MD_FILE } from '../emit/auth-md.js';
import { LEGACY_SERVER_CARD_FILE } from '../emit/mcp-server-card.js';
import {
  AUTHORIZATION_SERVER_FILE,
  isRecord,
  locateDocuments,
  readJson,
  stringField,
} from './bundle-layout.js';
import type { BundleFiles, Problem } from './problem.js';
import { validateAgainstVendored } from './schemas.js';

type Report = (message: string) => void;

function reporter(problems: Problem[], path: string, rule: string): Report {
  return (message) => problems.push({ path, rule, message });
}

/** The bundle file a URL path (or an absolute URL on the site) is served from, if any. */
export function fileServing(
  files: BundleFiles,
  url: string,
  siteUrl: string | undefined,
): string | undefined {
  let path = url;
  if (/^https?:\/\//.test(url)) {
    if (siteUrl === undefined || !URL.canParse(url) || new URL(url).origin !== new URL(siteUrl).origin)
      return undefined;
    path = decodeURIComponent(new URL(url).pathname);
  }
  const file = path.replace(/^\//, '');
  const candidates = path.endsWith('/') ? [`${file}index.html`] : [file, `${file}.json`];
  return candidates.find((candidate) => files.has(candidate));
}

function checkSkillsIndex(files: BundleFiles, siteUrl: string | undefined, problems: Problem[]): void {
  const index = readJson(files, SKILLS_INDEX_FILE);
  if (index === undefined) return;
  const report = reporter(problems, SKILLS_INDEX_FILE, 'agent-skills');
  if (!isRecord(index) || index.$schema !== SKILLS_SCHEMA) report(`$schema is not ${SKILLS_SCHEMA}`);
  const skills = isRecord(index) && Array.isArray(index.skills) ? index.skills : undefined;
  if (skills === undefined) {
    report('skills is not a list');
    return;
  }
  skills.forEach((skill, position) => {
    const name = stringField(skill, 'name') ?? '';
    const label = `skills[${position}] (${name || 'no name'})`;
    if (!SKILL_NAME.test(name)) report(`${label}: the name breaks the Agent Skills naming rules`);
    const type = stringField(skill, 'type');
    if (type !== 'skill-md' && type !== 'archive') report(`${label}: type must be skill-md or archive`);
    const description = stringField(skill, 'description') ?? '';
    if (description === '' || description.length > 1024)
      report(`${label}: description must be 1-1024 characters`);
    const url = stringField(skill, 'url') ?? '';
    const file = fileServing(files, url, siteUrl);
    const body = file === undefined ? undefined : files.get(file);
    if (body === undefined) {
      report(`${label}: ${url} is not a file of the bundle`);
      return;
    }
    if (stringField(skill, 'digest') !== sha256Digest(body)) {
      report(`${label}: digest is not the SHA-256 of ${url} (${sha256Digest(body)})`);
    }
    if (type === 'skill-md')
      checkSkillFile(body, name, description, reporter(problems, file ?? url, 'agent-skills'));
  });
}

function checkSkillFile(body: string, name: string, description: string, report: Report): void {
  let data: Record<string, unknown>;
  try {
    data = matter(body, {}).data;
  } catch (error) {
    report(`front matter is not valid YAML: ${error instanceof Error ? error.message : String(error)}`);
    return;
  }
  if (data.name !== name) report(`front matter name is ${String(data.name)}, the index says ${name}`);
  if (data.description !== description) report('front matter description differs from the index');
}

function findServerCard(files: BundleFiles, siteUrl: string | undefined): string | undefined {
  const catalog = readJson(files, AI_CATALOG_FILE);
  const entries = isRecord(catalog) && Array.isArray(catalog.entries) ? catalog.entries : [];
  const entry = entries.find(
    (candidate) => stringField(candidate, 'type') === 'application/mcp-server-card+json',
  );
  const url = stringField(entry, 'url');
  return url === undefined ? undefined : fileServing(files, url, siteUrl);
}

function checkServerCards(files: BundleFiles, siteUrl: string | undefined, problems: Problem[]): void {
  const legacy = readJson(files, LEGACY_SERVER_CARD_FILE);
  const cardFile = findServerCard(files, siteUrl);
  const card = cardFile === undefined ? undefined : readJson(files, cardFile);
  if (cardFile !== undefined) problems.push(...validateAgainstVendored('mcp-server-card', card, cardFile));
  if (legacy === undefined) return;
  const report = reporter(problems, LEGACY_SERVER_CARD_FILE, 'mcp-server-card');
  const serverInfo = isRecord(legacy) ? legacy.serverInfo : undefined;
  const transport = isRecord(legacy) ? legacy.transport : undefined;
  if (stringField(serverInfo, 'name') === undefined) report('serverInfo.name is missing');
  if (stringField(transport, 'endpoint') === undefined) report('transport.endpoint is missing');
  if (!isRecord(card)) return;
  const remotes = Array.isArray(card.remotes) ? card.remotes : [];
  if (stringField(serverInfo, 'name') !== card.name) report(`serverInfo.name differs from ${cardFile}`);
  if (!remotes.some((remote) => stringField(remote, 'url') === stringField(transport, 'endpoint'))) {
    report(`transport.endpoint is not a remote of ${cardFile}`);
  }
}

function checkAiCatalog(files: BundleFiles, siteUrl: string | undefined, problems: Problem[]): void {
  const catalog = readJson(files, AI_CATALOG_FILE);
  if (catalog === undefined) return;
  const report = reporter(problems, AI_CATALOG_FILE, 'ai-catalog');
  // The published rules first (scanner-rules.ts), then what only the bundle can say.
  for (const fault of aiCatalogFaults(catalog)) report(fault);
  const entries = isRecord(catalog) && Array.isArray(catalog.entries) ? catalog.entries : [];
  const seen = new Set<string>();
  entries.forEach((entry, position) => {
    const identifier = stringField(entry, 'identifier') ?? '';
    const label = `entries[${position}] (${identifier || 'no identifier'})`;
    if (seen.has(identifier)) report(`${label}: identifier listed twice`);
    seen.add(identifier);
    const url = stringField(entry, 'url');
    const onSite = url !== undefined && siteUrl !== undefined && url.startsWith(`${siteUrl}/`);
    if (onSite && fileServing(files, url, siteUrl) === undefined)
      report(`${label}: ${url} is not served by the bundle`);
  });
}

function checkAuthMd(files: BundleFiles, problems: Problem[]): void {
  const metadata = readJson(files, AUTHORIZATION_SERVER_FILE);
  const agentAuth = isRecord(metadata) ? metadata.agent_auth : undefined;
  if (!isRecord(agentAuth)) return;
  const guide = files.get(AUTH_MD_FILE);
  const report = reporter(problems, AUTH_MD_FILE, 'auth-md');
  if (guide === undefined) {
    report('the authorization server metadata has an agent_auth block but the bundle has no auth.md');
    return;
  }
  const urls = [
    agentAuth.register_uri,
    agentAuth.claim_uri,
    stringField(metadata, 'authorization_endpoint'),
    stringField(metadata, 'token_endpoint'),
  ];
  for (const url of urls) {
    if (typeof url === 'string' && !guide.includes(url))
      report(`does not name ${url} from the issuer metadata`);
  }
}

export function checkDiscovery(files: BundleFiles): Problem[] {
  const problems: Problem[] = [];
  const { siteUrl } = locateDocuments(files);
  checkSkillsIndex(files, siteUrl, problems);
  checkServerCards(files, siteUrl, problems);
  checkAiCatalog(files, siteUrl, problems);
  checkAuthMd(files, problems);
  return problems;
}
