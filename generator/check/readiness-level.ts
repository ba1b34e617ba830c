/**
 * The agent-readiness level the probes reach, as Cloudflare's scanner defines its levels
 * L0 (Not Ready) to L5 (Agent-Native): each level needs the one below it.
 */
import type { ProbeResult } from './probes.js';

export const LEVEL_NAMES = [
  'Not Ready',
  'Basic Web Presence',
  'Bot-Aware',
  'Agent-Readable',
  'Agent-Integrated',
  'Agent-Native',
] as const;

/**
 * The scanner's levels, each on top of the one below: L1 two of robots.txt, sitemap and
 * Link headers; L2 AI bot rules and Content Signals; L3 Markdown negotiation; L4 one of
 * the MCP server card, A2A card, skills index or API catalog; L5 two of Web Bot Auth, all
 * four of those documents, and authentication metadata (OAuth discovery or auth.md).
 */
export function levelOf(results: readonly ProbeResult[]): number {
  const ok = (id: string) => results.some((result) => result.id === id && result.status === 'pass');
  const integration = ['mcpServerCard', 'a2aAgentCard', 'agentSkills', 'apiCatalog'];
  const steps = [
    () => ['robotsTxt', 'sitemap', 'linkHeaders'].filter(ok).length >= 2,
    () => ok('robotsTxtAiRules') && ok('contentSignals'),
    () => ok('markdownNegotiation'),
    () => integration.some(ok),
    () =>
      [ok('webBotAuth'), integration.every(ok), ok('oauthDiscovery') || ok('authMd')].filter(Boolean)
        .length >= 2,
  ];
  let level = 0;
  while (level < steps.length && steps[level]?.()) level++;
  return level;
}
