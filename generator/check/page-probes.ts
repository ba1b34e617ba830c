/**
 * The homepage probes: Link headers, Markdown negotiation and WebMCP, each reading one HTML
 * page (`/` as the scanner does, or the bundle's own `/api/` beside the store's `/` in
 * model (b)).
 */
import { essenceOf } from './probe-http.js';
import { fail, type ProbeContext, pass, type Verdict } from './probe-verdict.js';
import { AGENT_LINK_RELATIONS, linkRelations } from './scanner-rules.js';

/** The probes that read the site's home page, which the store owns in model (b). */
export const HOMEPAGE_PROBES: readonly string[] = ['linkHeaders', 'markdownNegotiation', 'webMcp'];

/** The scanner reads the page's Link header for at least one relation an agent can act on. */
export async function probeLinkHeaders({ fetch, page }: ProbeContext): Promise<Verdict> {
  const link = (await fetch(page)).headers.get('link');
  if (link === null) return fail(`${page} has no Link header`);
  const rels = linkRelations(link);
  const useful = rels.filter((rel) => AGENT_LINK_RELATIONS.includes(rel));
  if (useful.length > 0) return pass(`${page} links ${useful.join(', ')}`);
  const found = rels.join(', ') || 'nothing parseable';
  return fail(`${page} links only ${found}; none of ${AGENT_LINK_RELATIONS.join(', ')}`);
}

/** `Accept: text/markdown` gets Markdown, with `Vary: Accept` (RFC 9110 §12.5.5). */
export async function probeMarkdown({ fetch, page }: ProbeContext): Promise<Verdict> {
  const response = await fetch(page, { accept: 'text/markdown' });
  const vary = (response.headers.get('vary') ?? '').toLowerCase();
  if (response.status !== 200 || essenceOf(response) !== 'text/markdown') {
    return fail(`${page} with Accept: text/markdown answered ${response.status} ${essenceOf(response)}`);
  }
  return vary.includes('accept')
    ? pass(`${page} negotiates Markdown`)
    : fail(`${page} serves Markdown without Vary: Accept`);
}

/**
 * WebMCP: the page loads a script of its own origin that registers tools with
 * `modelContext`, under a CSP that allows it. A store's page loads many scripts; the first
 * ten of its own origin are read.
 */
export async function probeWebMcp({ fetch, page }: ProbeContext): Promise<Verdict> {
  const html = await fetch(page);
  if (html.status !== 200 || essenceOf(html) !== 'text/html')
    return fail(`${page} answered ${html.status} ${essenceOf(html)}`);
  const csp = html.headers.get('content-security-policy') ?? '';
  if (csp !== '' && !/script-src[^;]*'self'/.test(csp))
    return fail("the page's CSP does not allow script-src 'self'");
  const sources = [...html.body.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)]
    .map((match) => match[1] ?? '')
    .filter((src) => src.startsWith('/') && !src.startsWith('//'))
    .slice(0, 10);
  if (sources.length === 0) return fail(`${page} loads no script of its own origin`);
  for (const src of sources) {
    const script = await fetch(src);
    if (/modelContext/.test(script.body) && /registerTool/.test(script.body))
      return pass(`${src} registers tools with modelContext`);
  }
  return fail(`none of ${sources.join(', ')} registers a tool`);
}
