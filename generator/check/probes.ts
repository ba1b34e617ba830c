/**
 * The agent-readiness probes `check` runs, after Cloudflare's scanner (isitagentready.com):
 * each fetches what an agent would and says pass, fail or not applicable, with why. The
 * ids are the scanner's, and the document rules are the published ones
 * (`scanner-rules.ts`), not this generator's own output. Probes that cannot be judged here
 * say so: the DNS probe needs the public DNS (offline, never), payment probes (x402, MPP)
 * do not apply to a free catalog, Web Bot Auth concerns crawlers, not sites. The homepage
 * probes (Link headers, Markdown negotiation, WebMCP) read `/`, as the scanner does. In
 * deployment model (b) `/` is the store's page, which the bundle cannot answer: those
 * verdicts judge the store, say so (`judges: 'store'`), and add what the bundle's own page
 * `/api/` answers. `readiness-level.ts` folds the verdicts into the scanner's levels.
 */
import { SKILLS_SCHEMA, sha256Digest } from '../emit/agent-skills.js';
import { AI_CRAWLERS, readRobotsGroups } from '../emit/robots.js';
import { isRecord, stringField } from '../validate/bundle-layout.js';
import { HOMEPAGE_PROBES, probeLinkHeaders, probeMarkdown, probeWebMcp } from './page-probes.js';
import { essenceOf, jsonOf, type ProbeFetch } from './probe-http.js';
import {
  fail,
  notApplicable,
  type Probe,
  type ProbeContext,
  type ProbeResult,
  type ProbeStatus,
  pass,
  type Verdict,
} from './probe-verdict.js';
import { a2aCardFaults, agentAuthFaults, aiCatalogFaults } from './scanner-rules.js';

export type { ProbeResult, ProbeStatus };

async function probeRobots({ fetch }: ProbeContext): Promise<Verdict> {
  const robots = await fetch('/robots.txt');
  if (robots.status !== 200) return fail(`/robots.txt answered ${robots.status}`);
  if (essenceOf(robots) !== 'text/plain') return fail(`/robots.txt is ${essenceOf(robots)}, not text/plain`);
  return readRobotsGroups(robots.body).size > 0 ? pass('has User-agent groups') : fail('no User-agent group');
}

async function probeSitemap({ fetch }: ProbeContext): Promise<Verdict> {
  const sitemap = await fetch('/sitemap.xml');
  if (sitemap.status === 200 && /<(urlset|sitemapindex)[\s>]/.test(sitemap.body))
    return pass('/sitemap.xml parses');
  return fail(`/sitemap.xml answered ${sitemap.status} without a urlset`);
}

async function probeAiRules({ fetch }: ProbeContext): Promise<Verdict> {
  const groups = readRobotsGroups((await fetch('/robots.txt')).body);
  const named = AI_CRAWLERS.filter((agent) => groups.has(agent.toLowerCase()));
  return named.length >= 3
    ? pass(`${named.length} AI crawlers named`)
    : fail(`${named.length} AI crawlers named`);
}

async function probeContentSignals({ fetch }: ProbeContext): Promise<Verdict> {
  const body = (await fetch('/robots.txt')).body;
  return /^content-signal:/im.test(body) ? pass('Content-Signal present') : fail('no Content-Signal line');
}

async function probeJsonDocument(
  fetch: ProbeFetch,
  paths: readonly string[],
  valid: (value: unknown) => string | undefined,
): Promise<Verdict> {
  for (const path of paths) {
    const response = await fetch(path);
    const value = jsonOf(response);
    if (value === undefined) continue;
    const fault = valid(value);
    return fault === undefined ? pass(`${path} is valid`) : fail(`${path}: ${fault}`);
  }
  return fail(`none of ${paths.join(', ')} answered JSON`);
}

const faultText = (faults: readonly string[]) => (faults.length === 0 ? undefined : faults.join('; '));

const has = (value: unknown, ...keys: string[]) =>
  isRecord(value) && keys.every((key) => value[key] !== undefined);

async function probeAgentSkills({ fetch }: ProbeContext): Promise<Verdict> {
  const index = jsonOf(await fetch('/.well-known/agent-skills/index.json'));
  if (!isRecord(index) || index.$schema !== SKILLS_SCHEMA || !Array.isArray(index.skills)) {
    return fail('no agent skills index with the 0.2.0 $schema');
  }
  for (const skill of index.skills) {
    const url = stringField(skill, 'url') ?? '';
    const artifact = await fetch(url.startsWith('/') ? url : new URL(url).pathname);
    if (artifact.status !== 200) return fail(`${url} answered ${artifact.status}`);
    if (sha256Digest(artifact.body) !== stringField(skill, 'digest'))
      return fail(`${url} does not match its digest`);
  }
  return pass(`${index.skills.length} skill(s), each matching its SHA-256`);
}

/**
 * Cloudflare's auth-md skill: `/auth.md` is Markdown with an H1 containing "auth.md"; the
 * protected resource metadata names its authorization servers; the authorization server
 * metadata's issuer is one of them and its `agent_auth` block has `skill`, `register_uri`
 * and one complete registration method. The scanner fetches the metadata from the
 * authorization server's own origin; check stays on the target's origin (offline), so it
 * reads the site's copy, which the gate holds equal to what the issuer serves.
 */
async function probeAuthMd({ fetch }: ProbeContext): Promise<Verdict> {
  const guide = await fetch('/auth.md');
  if (guide.status !== 200) return fail(`/auth.md answered ${guide.status}`);
  if (!/^#\s+.*auth\.md/im.test(guide.body)) return fail('/auth.md has no H1 heading containing "auth.md"');
  const resource = jsonOf(await fetch('/.well-known/oauth-protected-resource'));
  const servers =
    isRecord(resource) && Array.isArray(resource.authorization_servers) ? resource.authorization_servers : [];
  const metadata = jsonOf(await fetch('/.well-known/oauth-authorization-server'));
  const faults = agentAuthFaults(metadata);
  if (faults.length > 0) return fail(faults.join('; '));
  const issuer = stringField(metadata, 'issuer');
  if (servers.length > 0 && !servers.includes(issuer))
    return fail(`the metadata's issuer ${issuer} is not among the resource's authorization_servers`);
  return pass('/auth.md, and an agent_auth block with skill, register_uri and a complete method');
}

export const PROBES: readonly Probe[] = [
  { id: 'robotsTxt', category: 'discoverability', run: probeRobots },
  { id: 'sitemap', category: 'discoverability', run: probeSitemap },
  { id: 'linkHeaders', category: 'discoverability', run: probeLinkHeaders },
  { id: 'markdownNegotiation', category: 'contentAccessibility', run: probeMarkdown },
  { id: 'robotsTxtAiRules', category: 'botAccessControl', run: probeAiRules },
  { id: 'contentSignals', category: 'botAccessControl', run: probeContentSignals },
  {
    id: 'webBotAuth',
    category: 'botAccessControl',
    run: async () => notApplicable('signs crawlers, not sites'),
  },
  {
    id: 'apiCatalog',
    category: 'discovery',
    run: ({ fetch }) =>
      probeJsonDocument(fetch, ['/.well-known/api-catalog'], (v) =>
        has(v, 'linkset') ? undefined : 'no linkset',
      ),
  },
  {
    id: 'oauthDiscovery',
    category: 'discovery',
    run: ({ fetch }) =>
      probeJsonDocument(
        fetch,
        ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration'],
        (v) => (has(v, 'issuer', 'token_endpoint') ? undefined : 'no issuer or token_endpoint'),
      ),
  },
  {
    id: 'oauthProtectedResource',
    category: 'discovery',
    run: ({ fetch }) =>
      probeJsonDocument(fetch, ['/.well-known/oauth-protected-resource'], (v) =>
        has(v, 'resource', 'authorization_servers') ? undefined : 'no resource',
      ),
  },
  {
    id: 'mcpServerCard',
    category: 'discovery',
    run: ({ fetch }) =>
      probeJsonDocument(
        fetch,
        ['/.well-known/mcp/server-card.json', '/.well-known/mcp/server-cards.json', '/.well-known/mcp.json'],
        (v) => (has(v, 'serverInfo') || has(v, 'name') ? undefined : 'no server name'),
      ),
  },
  {
    id: 'a2aAgentCard',
    category: 'discovery',
    run: ({ fetch }) =>
      probeJsonDocument(fetch, ['/.well-known/agent-card.json'], (v) => faultText(a2aCardFaults(v))),
  },
  { id: 'agentSkills', category: 'discovery', run: probeAgentSkills },
  {
    id: 'ard',
    category: 'discovery',
    run: ({ fetch }) =>
      probeJsonDocument(fetch, ['/.well-known/ai-catalog.json'], (v) => faultText(aiCatalogFaults(v))),
  },
  { id: 'authMd', category: 'discovery', run: probeAuthMd },
  { id: 'webMcp', category: 'discovery', run: probeWebMcp },
  {
    id: 'ucp',
    category: 'commerce',
    run: ({ fetch }) =>
      probeJsonDocument(fetch, ['/.well-known/ucp'], (v) => (has(v, 'ucp') ? undefined : 'no ucp object')),
  },
  { id: 'x402', category: 'commerce', run: async () => notApplicable('a free catalog takes no payment') },
  { id: 'mpp', category: 'commerce', run: async () => notApplicable('a free catalog takes no payment') },
  {
    id: 'dns',
    category: 'discovery',
    run: async () => notApplicable('needs the public DNS; check runs offline'),
  },
];

/** The bundle's own page in model (b), whose verdict is reported beside the store's. */
const BUNDLE_PAGE = '/api/';

/**
 * Runs every probe. `storeOwnsRoot` (model (b)): the homepage probes still judge `/`, as
 * the scanner does, marked as judging the store, with the bundle's `/api/` verdict beside.
 */
export async function runProbes(fetch: ProbeFetch, storeOwnsRoot: boolean): Promise<ProbeResult[]> {
  const results: ProbeResult[] = [];
  for (const probe of PROBES) {
    const [status, message] = await probe.run({ fetch, page: '/' });
    if (!storeOwnsRoot || !HOMEPAGE_PROBES.includes(probe.id)) {
      results.push({ id: probe.id, category: probe.category, status, message });
      continue;
    }
    const [ownStatus, ownMessage] = await probe.run({ fetch, page: BUNDLE_PAGE });
    results.push({
      id: probe.id,
      category: probe.category,
      status,
      message: `the store's page, which the bundle cannot answer in model (b) (docs/hosting.md says what it needs): ${message}; the bundle's ${BUNDLE_PAGE}: ${ownStatus}, ${ownMessage}`,
      judges: 'store',
    });
  }
  return results;
}
