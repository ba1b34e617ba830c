/**
 * `/robots.txt` (RFC 9309) with the usage policy in the machine-readable forms that exist
 * for it: a `Content-Signal` line (contentsignals.org: search, ai-input, ai-train) and a
 * `Content-Usage` line (IETF aipref, draft-ietf-aipref-attach), both inside the `*`
 * group, plus an absolute `Sitemap:` line; and `/.well-known/tdmrep.json` (W3C TDMRep).
 * Crawling stays allowed everywhere: the policy limits use, not reading. The AI crawlers
 * agent-readiness scanners look for by name (`AI_CRAWLERS`) each get a group of their own
 * with the very rules of the `*` group: RFC 9309 §2.2.1 has a crawler obey only the most
 * specific group that names it, so a named group must repeat every rule or it would lose
 * the usage signals.
 */
import type { Artifact } from '../artifact.js';
import type { BuildPlan } from '../plan.js';
import { isRecord, parseJson } from '../validate/bundle-layout.js';
import type { BundleFiles, Problem } from '../validate/problem.js';
import { stableJson } from './json.js';
import { filePathOf, ROBOTS_PATH, SITEMAP_PATH, siteUrl, TDMREP_PATH } from './sitemap-pages.js';
import { resolveUsagePolicy } from './usage-policy.js';
import { isAbsoluteUrl } from './xml-text.js';

export const ROBOTS_FILE = filePathOf(ROBOTS_PATH);
export const TDMREP_FILE = filePathOf(TDMREP_PATH);
/** RFC 9309 section 2.5: crawlers MUST parse at least 500 kibibytes. */
const MAX_ROBOTS_BYTES = 500 * 1024;

/**
 * The AI crawlers named in robots.txt, each with the rules of the `*` group: the list
 * Cloudflare's agent-readiness scanner (isitagentready.com, "AI bot rules") and the
 * operators' own pages name: OpenAI, Anthropic, Perplexity, Google, Apple, Common Crawl,
 * ByteDance, Amazon, Meta, DuckDuckGo.
 */
export const AI_CRAWLERS: readonly string[] = [
  'GPTBot',
  'OAI-SearchBot',
  'ChatGPT-User',
  'ClaudeBot',
  'Claude-User',
  'Claude-SearchBot',
  'Claude-Web',
  'anthropic-ai',
  'PerplexityBot',
  'Perplexity-User',
  'Google-Extended',
  'Applebot-Extended',
  'CCBot',
  'Bytespider',
  'Amazonbot',
  'meta-externalagent',
  'FacebookBot',
  'DuckAssistBot',
];

export function emitRobots(plan: BuildPlan): Artifact[] {
  const { config } = plan;
  const policy = resolveUsagePolicy(config);
  const rules = [
    `Content-Signal: ${policy.contentSignal}`,
    `Content-Usage: ${policy.contentUsage}`,
    'Allow: /',
  ];
  const named = AI_CRAWLERS.flatMap((agent) => [`User-agent: ${agent}`, ...rules, '']);
  const robots = [
    `# robots.txt for ${config.site_url} (${config.merchant.name.replace(/[\r\n]+/g, ' ')}), generated from its usage policy.`,
    '# Content-Signal (https://contentsignals.org): search = building a search index and',
    '# showing links and excerpts; ai-input = using content as input to AI answers',
    '# (retrieval, grounding, citation); ai-train = training or fine-tuning AI models.',
    '# Content-Usage: the IETF AI-preferences form of the same rule (draft-ietf-aipref-attach).',
    `# Terms: ${policy.termsUrl}`,
    '',
    'User-agent: *',
    ...rules,
    '',
    '# AI crawlers by name, with the same rules (RFC 9309: a crawler obeys only its most specific group).',
    ...named,
    `Sitemap: ${siteUrl(config, SITEMAP_PATH)}`,
    '',
  ].join('\n');
  return [
    { path: ROBOTS_FILE, mediaType: 'text/plain; charset=utf-8', body: robots },
    { path: TDMREP_FILE, mediaType: 'application/json', body: stableJson(policy.tdmRep) },
  ];
}

const KNOWN_FIELDS = new Set([
  'user-agent',
  'allow',
  'disallow',
  'sitemap',
  'crawl-delay',
  'content-signal',
  'content-usage',
  'host',
]);
const GROUP_RULES = new Set(['allow', 'disallow', 'crawl-delay', 'content-signal', 'content-usage']);
const CONTENT_SIGNAL = /^(search|ai-input|ai-train)=(yes|no)$/;

function checkRobotsText(body: string): string[] {
  const faults: string[] = [];
  if (Buffer.byteLength(body) > MAX_ROBOTS_BYTES) faults.push('larger than the 500 KiB crawlers must read');
  let inGroup = false;
  let sitemaps = 0;
  body.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.replace(/#.*$/, '').trim();
    if (line === '') return;
    const colon = line.indexOf(':');
    const name = colon > 0 ? line.slice(0, colon).trim().toLowerCase() : '';
    const value = colon > 0 ? line.slice(colon + 1).trim() : '';
    const where = `line ${index + 1}`;
    if (!KNOWN_FIELDS.has(name)) {
      faults.push(`${where}: "${line.slice(0, 60)}" is not a robots.txt rule`);
      return;
    }
    if (name === 'user-agent') inGroup = true;
    else if (GROUP_RULES.has(name) && !inGroup) faults.push(`${where}: ${name} outside a User-agent group`);
    if ((name === 'allow' || name === 'disallow') && value !== '' && !/^[/*]/.test(value)) {
      faults.push(`${where}: ${name} path must start with "/"`);
    }
    if (name === 'sitemap') {
      sitemaps++;
      if (!isAbsoluteUrl(value)) faults.push(`${where}: Sitemap must be an absolute URL`);
    }
    if (name === 'content-signal') {
      const bad = value.split(',').filter((part) => !CONTENT_SIGNAL.test(part.trim()));
      if (bad.length > 0)
        faults.push(`${where}: Content-Signal entries must be search|ai-input|ai-train=yes|no`);
    }
    if (name === 'content-usage' && !/^(\/\S*\s+)?[a-z-]+=[yn](\s*,\s*[a-z-]+=[yn])*$/.test(value)) {
      faults.push(`${where}: Content-Usage must be a list of category=y|n`);
    }
  });
  if (!inGroup) faults.push('no User-agent group');
  if (sitemaps === 0) faults.push('no Sitemap line');
  return faults;
}

/**
 * The groups of a robots.txt: each user agent (lower case) to its rule lines, normalised
 * (`name: value`, name lower case). Consecutive `User-agent` lines share one group
 * (RFC 9309 §2.1); `Sitemap` is not a group rule.
 */
export function readRobotsGroups(body: string): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  let agents: string[] = [];
  let collecting = false;
  for (const raw of body.split(/\r?\n/)) {
    const line = raw.replace(/#.*$/, '').trim();
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'user-agent') {
      if (collecting) agents = [];
      collecting = false;
      agents.push(value.toLowerCase());
      for (const agent of agents) if (!groups.has(agent)) groups.set(agent, []);
    } else if (GROUP_RULES.has(name)) {
      collecting = true;
      for (const agent of agents) groups.get(agent)?.push(`${name}: ${value}`);
    }
  }
  return groups;
}

/** A named group that differs from the `*` group would give that crawler other rules (RFC 9309 §2.2.1). */
function checkNamedGroups(body: string): string[] {
  const groups = readRobotsGroups(body);
  const star = (groups.get('*') ?? []).join('\n');
  return [...groups]
    .filter(([agent, rules]) => agent !== '*' && rules.join('\n') !== star)
    .map(
      ([agent]) =>
        `the group for ${agent} differs from the * group; a named crawler obeys only its own group`,
    );
}

function checkTdmRep(files: BundleFiles): string[] {
  // The gate's JSON reader: parsed once per bundle, shared with the syntax and schema checks.
  const reading = parseJson(files, TDMREP_FILE);
  if (!reading?.ok) return ['not valid JSON'];
  const parsed = reading.value;
  if (!Array.isArray(parsed) || parsed.length === 0) return ['expected a non-empty array of rules'];
  return parsed.flatMap((record: unknown, index): string[] => {
    if (!isRecord(record)) return [`rule ${index + 1} is not an object`];
    const faults: string[] = [];
    if (typeof record.location !== 'string' || !record.location.startsWith('/')) {
      faults.push(`rule ${index + 1}: location must be a path`);
    }
    if (record['tdm-reservation'] !== 0 && record['tdm-reservation'] !== 1) {
      faults.push(`rule ${index + 1}: tdm-reservation must be 0 or 1`);
    }
    const policy = record['tdm-policy'];
    if (policy !== undefined && (typeof policy !== 'string' || !isAbsoluteUrl(policy))) {
      faults.push(`rule ${index + 1}: tdm-policy must be an absolute URL`);
    }
    return faults;
  });
}

export function checkRobots(files: BundleFiles): Problem[] {
  const problems: Problem[] = [];
  const robots = files.get(ROBOTS_FILE);
  if (robots === undefined)
    problems.push({ path: ROBOTS_FILE, rule: 'missing', message: 'robots.txt is missing' });
  else
    problems.push(
      ...[...checkRobotsText(robots), ...checkNamedGroups(robots)].map((message) => ({
        path: ROBOTS_FILE,
        rule: 'robots',
        message,
      })),
    );
  if (!files.has(TDMREP_FILE))
    problems.push({ path: TDMREP_FILE, rule: 'missing', message: 'tdmrep.json is missing' });
  else
    problems.push(...checkTdmRep(files).map((message) => ({ path: TDMREP_FILE, rule: 'tdmrep', message })));
  return problems;
}
