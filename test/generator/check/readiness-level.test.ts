import { describe, expect, test } from 'vitest';
import type { ProbeResult } from '../../../generator/check/probes.js';
import { levelOf } from '../../../generator/check/readiness-level.js';

function results(passing: readonly string[]): ProbeResult[] {
  const ids = [
    'robotsTxt',
    'sitemap',
    'linkHeaders',
    'markdownNegotiation',
    'robotsTxtAiRules',
    'contentSignals',
    'webBotAuth',
    'apiCatalog',
    'oauthDiscovery',
    'mcpServerCard',
    'a2aAgentCard',
    'agentSkills',
    'authMd',
  ];
  return ids.map((id) => ({
    id,
    category: 'x',
    status: passing.includes(id) ? 'pass' : 'fail',
    message: '',
  }));
}

describe("levelOf, the scanner's levels", () => {
  const l1 = ['robotsTxt', 'sitemap'];
  const l2 = [...l1, 'robotsTxtAiRules', 'contentSignals'];
  const l3 = [...l2, 'markdownNegotiation'];
  const l4 = [...l3, 'apiCatalog'];
  const all = ['mcpServerCard', 'a2aAgentCard', 'agentSkills', 'apiCatalog'];

  test.each([
    [[], 0],
    [['robotsTxt'], 0],
    [l1, 1],
    [[...l1, 'robotsTxtAiRules'], 1],
    [l2, 2],
    [[...l1, 'robotsTxtAiRules', 'contentSignals', 'apiCatalog'], 2],
    [l3, 3],
    [l4, 4],
    [[...l4, 'oauthDiscovery'], 4],
    [[...l3, ...all, 'authMd'], 5],
    [[...l3, ...all, 'oauthDiscovery'], 5],
  ])('passing %j reaches L%i', (passing, level) => {
    expect(levelOf(results(passing))).toBe(level);
  });

  test('each level needs the one below: Markdown negotiation without AI bot rules stays at L1', () => {
    expect(levelOf(results([...l1, 'markdownNegotiation', ...all, 'authMd']))).toBe(1);
  });
});
