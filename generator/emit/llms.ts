/**
 * `/llms.txt` in the llmstxt.org format (an H1 with the merchant's name, a blockquote
 * summary, prose without headings, then H2 sections that are lists of
 * `- [name](url): notes`, the one named "Optional" holding what can be skipped), and
 * `/llms-full.txt`, the same guide with the knowledge base inlined for agents that want one
 * fetch. `checkLlms` validates that structure from the text; `readLlmsLinks` gives the
 * links back (the consistency checks compare the product links with the catalog).
 */
import type { Artifact } from '../artifact.js';
import { chunkedArtifact } from '../compact-artifact.js';
import type { BuildPlan } from '../plan.js';
import type { BundleFiles, Problem } from '../validate/problem.js';
import { documentTexts } from '../validate/text-lines.js';
import { describeCatalogFacts, describeCatalogFields } from './catalog-fields.js';
import { renderKnowledgeBaseSections } from './kb-markdown.js';
import { llmsSections } from './llms-sections.js';
import { escapeMarkdownInline, escapeMarkdownParagraphs } from './markdown-text.js';
import { filePathOf, LLMS_FULL_PATH, LLMS_PATH } from './sitemap-pages.js';
import { resolveUsagePolicy, type UsagePolicy } from './usage-policy.js';
import { isAbsoluteUrl } from './xml-text.js';

export const LLMS_FILE = filePathOf(LLMS_PATH);
export const LLMS_FULL_FILE = filePathOf(LLMS_FULL_PATH);
const TEXT_MEDIA_TYPE = 'text/plain; charset=utf-8';

function renderHeader(plan: BuildPlan, policy: UsagePolicy): string {
  const { config } = plan;
  const summary = [
    config.merchant.description,
    `Public, read-only product catalog of ${config.merchant.name} for AI agents: ${plan.catalog.count} products with ${describeCatalogFacts(describeCatalogFields(plan))}, rebuilt every 15 minutes. No key, token or registration is needed.`,
  ]
    .filter((part): part is string => part !== undefined)
    .join(' ');
  return [
    `# ${escapeMarkdownInline(config.merchant.name)}`,
    `> ${escapeMarkdownInline(summary)}`,
    escapeMarkdownParagraphs(
      `Every product record links to its product page, where a person completes the purchase on ${config.merchant.url}. This service has no cart, order or payment operations.`,
    ),
    ['Usage rules:', '', ...policy.rules.map((rule) => `- ${escapeMarkdownInline(rule.text)}`)].join('\n'),
  ].join('\n\n');
}

export function emitLlms(plan: BuildPlan): Artifact[] {
  const policy = resolveUsagePolicy(plan.config);
  const header = renderHeader(plan, policy);
  const sections = llmsSections(plan, policy);
  const render = (names: readonly string[]) =>
    sections
      .filter((section) => names.includes(section.title))
      .map((section) => [`## ${section.title}`, '', ...section.lines].join('\n'));
  const llms = [header, ...render(sections.map((section) => section.title))].join('\n\n');
  // The knowledge base's sections hold every product: joined as bytes, not as one string.
  const full = [
    Buffer.from(`${[header, ...render(['Catalog API', 'Documents', 'Usage'])].join('\n\n')}\n\n`, 'utf8'),
    ...renderKnowledgeBaseSections(plan),
    Buffer.from(`${['', ...render(['Optional'])].join('\n\n')}\n`, 'utf8'),
  ];
  return [
    { path: LLMS_FILE, mediaType: TEXT_MEDIA_TYPE, body: `${llms}\n` },
    chunkedArtifact({ path: LLMS_FULL_FILE, mediaType: TEXT_MEDIA_TYPE, body: '' }, full),
  ];
}

export interface LlmsLink {
  section: string;
  title: string;
  url: string;
  notes: string;
}

const LINK_ITEM = /^- \[((?:\\.|[^\]\\])+)\]\(((?:\\.|[^)\\\s])+)\)(?::\s+(.*))?$/;

function resolveEscapes(text: string): string {
  return text.replace(/\\([!-/:-@[-`{-~])/g, '$1');
}

interface LlmsScan {
  links: LlmsLink[];
  faults: string[];
}

/** Walks an llms.txt body line by line, outside fenced code, collecting links and structure faults. */
function scanLlms(text: string): LlmsScan {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const faults: string[] = [];
  const links: LlmsLink[] = [];
  const content = lines
    .map((line, index) => ({ line, number: index + 1 }))
    .filter(({ line }) => line.trim() !== '');
  const first = content[0];
  if (first === undefined || !/^# \S/.test(first.line)) faults.push('the first line is not an H1 title');
  if (content[1] === undefined || !content[1].line.startsWith('> '))
    faults.push('no blockquote summary after the H1');
  let section: string | undefined;
  let fenced = false;
  for (const { line, number } of content.slice(1)) {
    if (/^ {0,3}(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) continue;
    if (/^# /.test(line)) faults.push(`line ${number}: a second H1`);
    else if (/^## \S/.test(line)) section = line.slice(3).trim();
    else if (/^#{3,6} /.test(line) && section === undefined)
      faults.push(`line ${number}: a heading before the first H2`);
    else if (section !== undefined) {
      const match = LINK_ITEM.exec(line);
      const url = match?.[2] === undefined ? '' : resolveEscapes(match[2]);
      if (match?.[1] === undefined || !isAbsoluteUrl(url)) {
        faults.push(`line ${number}: "${line.slice(0, 80)}" is not a "- [name](absolute url): notes" item`);
        continue;
      }
      links.push({ section, title: resolveEscapes(match[1]), url, notes: resolveEscapes(match[3] ?? '') });
    }
  }
  return { links, faults };
}

/** The `- [name](url): notes` items of an llms.txt body, with the H2 section each sits in. */
export function readLlmsLinks(text: string): LlmsLink[] {
  return scanLlms(text).links;
}

export function checkLlms(files: BundleFiles): Problem[] {
  return [...checkLlmsIndex(files), ...checkLlmsFull(files)];
}

/** llms.txt alone: a small file whatever the catalog's size. */
export function checkLlmsIndex(files: BundleFiles): Problem[] {
  const problems: Problem[] = [];
  const llms = files.get(LLMS_FILE);
  if (llms === undefined) problems.push({ path: LLMS_FILE, rule: 'missing', message: 'llms.txt is missing' });
  else {
    const { links, faults } = scanLlms(llms);
    problems.push(...faults.map((message) => ({ path: LLMS_FILE, rule: 'llms', message })));
    if (links.length === 0)
      problems.push({ path: LLMS_FILE, rule: 'llms', message: 'no H2 section of links' });
  }
  return problems;
}

/**
 * llms-full.txt (117 MiB at 100,000 products): only its start is read, for the first line.
 * Joined and decoded whole, its bytes and its text were a few hundred megabytes the build's
 * peak resident memory held for one regular expression.
 */
function checkLlmsFull(files: BundleFiles): Problem[] {
  const texts = documentTexts(files, LLMS_FULL_FILE);
  if (texts === undefined)
    return [{ path: LLMS_FULL_FILE, rule: 'missing', message: 'llms-full.txt is missing' }];
  if (!startsWithTitle(texts))
    return [{ path: LLMS_FULL_FILE, rule: 'llms', message: 'the first line is not an H1 title' }];
  return [];
}

/** True when the text, leading white space left out, starts `# ` and a character: read until that is known. */
function startsWithTitle(texts: Iterable<string>): boolean {
  let start = '';
  for (const piece of texts) {
    start = `${start}${piece}`.trimStart();
    // Three characters decide the pattern; leaving the loop stops reading the document.
    if (start.length >= 3) break;
  }
  return /^# \S/.test(start);
}
