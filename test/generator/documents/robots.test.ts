import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import {
  AI_CRAWLERS,
  checkRobots,
  emitRobots,
  ROBOTS_FILE,
  TDMREP_FILE,
} from '../../../generator/emit/robots.js';
import { bundleFilesOf } from '../../../generator/validate/index.js';
import { makeSampleConfig, makeSamplePlan, SAMPLE_CONFIG_INPUT } from '../../helpers/sample-plan.js';

interface Robot {
  isAllowed(url: string, ua?: string): boolean | undefined;
  getSitemaps(): string[];
}
// robots-parser is CommonJS whose typings declare an ES default export; require it as it is.
const robotsParser = createRequire(import.meta.url)('robots-parser') as (url: string, text: string) => Robot;

function emitted(plan = makeSamplePlan()) {
  const artifacts = emitRobots(plan);
  const robots = artifacts.find((a) => a.path === ROBOTS_FILE);
  const tdmrep = artifacts.find((a) => a.path === TDMREP_FILE);
  if (robots === undefined || tdmrep === undefined) throw new Error('missing artifacts');
  return { artifacts, robots, tdmrep };
}

/** The value of each `Name: value` rule inside the `User-agent: *` group, read independently. */
function groupRules(text: string): Map<string, string[]> {
  const rules = new Map<string, string[]>();
  let inStar = false;
  for (const raw of text.split('\n')) {
    const line = raw.replace(/#.*/, '').trim();
    const match = /^([A-Za-z-]+):\s*(.*)$/.exec(line);
    if (match?.[1] === undefined || match[2] === undefined) continue;
    const name = match[1].toLowerCase();
    if (name === 'user-agent') inStar = match[2] === '*';
    else if (inStar) rules.set(name, [...(rules.get(name) ?? []), match[2]]);
  }
  return rules;
}

describe('emitRobots', () => {
  it('lets search crawlers and AI fetchers read every page and names the sitemap', () => {
    const { robots } = emitted();
    expect(robots.mediaType).toBe('text/plain; charset=utf-8');
    const parsed = robotsParser('https://shop.pomona.example/robots.txt', robots.body);
    for (const agent of ['Googlebot', 'Bingbot', 'OAI-SearchBot', 'PerplexityBot']) {
      expect(parsed.isAllowed('https://shop.pomona.example/products/green-glow', agent)).toBe(true);
      expect(parsed.isAllowed('https://shop.pomona.example/agent-catalog', agent)).toBe(true);
    }
    expect(parsed.getSitemaps()).toEqual(['https://shop.pomona.example/sitemap.xml']);
  });

  it("gives every AI crawler the scanner names a group of its own with the * group's rules", () => {
    const { robots } = emitted();
    const parsed = robotsParser('https://shop.pomona.example/robots.txt', robots.body);
    const text = robots.body;
    for (const agent of [
      'GPTBot',
      'ClaudeBot',
      'Claude-SearchBot',
      'PerplexityBot',
      'Google-Extended',
      'CCBot',
    ]) {
      expect(text).toContain(`User-agent: ${agent}\n`);
      expect(parsed.isAllowed('https://shop.pomona.example/agent-catalog', agent)).toBe(true);
    }
    // Read independently: each named group carries the same three rules as the * group.
    const groups = text
      .split(/\n\n+/)
      .map((block) => block.replace(/^#.*\n/gm, ''))
      .filter((block) => block.startsWith('User-agent:'));
    const rulesOf = (block: string) => block.split('\n').slice(1).join('\n');
    const star = groups.find((block) => block.startsWith('User-agent: *'));
    expect(star).toBeDefined();
    expect(groups).toHaveLength(AI_CRAWLERS.length + 1);
    for (const block of groups) expect(rulesOf(block)).toBe(rulesOf(star ?? ''));
  });

  it('refuses training in the content-signal and AI-preferences forms inside the * group', () => {
    const rules = groupRules(emitted().robots.body);
    expect(rules.get('content-signal')).toEqual(['search=yes, ai-input=yes, ai-train=no']);
    expect(rules.get('content-usage')).toEqual(['train-ai=n']);
  });

  it('derives the signals from config.usage', () => {
    const config = makeSampleConfig({
      ...SAMPLE_CONFIG_INPUT,
      usage: { allow_training: true, allow_ai_input: false },
    });
    const rules = groupRules(emitted(makeSamplePlan({ config })).robots.body);
    expect(rules.get('content-signal')).toEqual(['search=yes, ai-input=no, ai-train=yes']);
    expect(rules.get('content-usage')).toEqual(['train-ai=y']);
  });

  it('publishes a TDMRep file reserving mining rights with a policy that permits citation', () => {
    const { tdmrep } = emitted();
    expect(tdmrep.mediaType).toBe('application/json');
    expect(JSON.parse(tdmrep.body)).toEqual([
      { location: '/', 'tdm-reservation': 1, 'tdm-policy': 'https://shop.pomona.example/api/#usage' },
    ]);
  });

  it('keeps a merchant name with a newline inside the comment', () => {
    const config = makeSampleConfig({
      ...SAMPLE_CONFIG_INPUT,
      merchant: { ...SAMPLE_CONFIG_INPUT.merchant, name: 'Evil\nDisallow: /' },
    });
    const { robots, artifacts } = emitted(makeSamplePlan({ config }));
    const parsed = robotsParser('https://shop.pomona.example/robots.txt', robots.body);
    expect(parsed.isAllowed('https://shop.pomona.example/', 'Googlebot')).toBe(true);
    expect(checkRobots(bundleFilesOf(artifacts))).toEqual([]);
  });

  it('passes its own checker', () => {
    expect(checkRobots(bundleFilesOf(emitted().artifacts))).toEqual([]);
  });
});

describe('checkRobots', () => {
  const files = () => new Map(bundleFilesOf(emitted().artifacts));

  it('refuses a robots.txt without a Sitemap line', () => {
    const bundle = files();
    bundle.set(ROBOTS_FILE, (bundle.get(ROBOTS_FILE) ?? '').replace(/^Sitemap:.*$/m, ''));
    expect(checkRobots(bundle)).toHaveLength(1);
  });

  it('refuses a rule outside a group and an unknown directive', () => {
    const bundle = files();
    bundle.set(ROBOTS_FILE, `Disallow: /private\nNonsense here\n${bundle.get(ROBOTS_FILE) ?? ''}`);
    expect(checkRobots(bundle)).toHaveLength(2);
  });

  it('refuses a malformed content signal and a relative sitemap', () => {
    const bundle = files();
    const body = (bundle.get(ROBOTS_FILE) ?? '')
      .replaceAll('ai-train=no', 'ai-train=maybe')
      .replace('Sitemap: https://shop.pomona.example/sitemap.xml', 'Sitemap: /sitemap.xml');
    bundle.set(ROBOTS_FILE, body);
    const messages = checkRobots(bundle).map((problem) => problem.message);
    // One Content-Signal fault per group (the * group and each named crawler), one Sitemap fault.
    expect(messages.filter((message) => message.includes('Content-Signal'))).toHaveLength(
      AI_CRAWLERS.length + 1,
    );
    expect(messages.filter((message) => message.includes('Sitemap'))).toHaveLength(1);
    expect(messages).toHaveLength(AI_CRAWLERS.length + 2);
  });

  it('refuses a named crawler group whose rules differ from the * group', () => {
    const bundle = files();
    const body = (bundle.get(ROBOTS_FILE) ?? '').replace(
      'User-agent: ClaudeBot\nContent-Signal: search=yes, ai-input=yes, ai-train=no',
      'User-agent: ClaudeBot\nContent-Signal: search=yes, ai-input=yes, ai-train=yes',
    );
    bundle.set(ROBOTS_FILE, body);
    const messages = checkRobots(bundle).map((problem) => problem.message);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain('claudebot');
  });

  it('refuses a TDMRep file with a bad reservation value', () => {
    const bundle = files();
    bundle.set(TDMREP_FILE, JSON.stringify([{ location: '/', 'tdm-reservation': 'yes' }]));
    expect(checkRobots(bundle).map((p) => p.path)).toEqual([TDMREP_FILE]);
  });
});
