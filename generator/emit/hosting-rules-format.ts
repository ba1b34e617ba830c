/**
 * The one reader and writer of the hosting-rules files that Netlify and Cloudflare Pages
 * read from the publish directory: `_headers` (a path line at column 0, then indented
 * `Name: value` lines) and `_redirects` (`from to [status][!]` per line). The emitter
 * writes them with `formatHeadersFile`/`formatRedirectsFile`; the preview server and the
 * bundle checker read them with `parseHeadersFile`/`parseRedirectsFile`, so the site is
 * served and checked exactly as it is deployed. Syntax errors raise OUTPUT_INVALID with the
 * file and 1-based line number.
 * Formats: https://docs.netlify.com/manage/routing/headers/ and
 * https://docs.netlify.com/manage/routing/redirects/overview/ ("Any line beginning with #
 * will be ignored as a comment"; status defaults to 301; a trailing `!` forces the rule
 * even when a file exists at the path).
 */
import { CatalogError } from '../errors.js';

/** The file names the hosts read from the root of the publish directory. */
export const HEADERS_FILE = '_headers';
export const REDIRECTS_FILE = '_redirects';

export interface HeaderRule {
  path: string;
  headers: [name: string, value: string][];
}

export interface RedirectRule {
  from: string;
  to: string;
  status: number;
  force: boolean;
}

/** RFC 9110 section 5.1: a field name is a token. */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const STATUS = /^(\d{3})(!?)$/;
const DEFAULT_REDIRECT_STATUS = 301;

function syntaxError(file: string, line: number, message: string): CatalogError {
  return new CatalogError('OUTPUT_INVALID', `${file} line ${line}: ${message}`, { file, line });
}

function isComment(trimmed: string): boolean {
  return trimmed === '' || trimmed.startsWith('#');
}

function isPathOrUrl(text: string): boolean {
  return text.startsWith('/') || /^https?:\/\//.test(text);
}

/** Reads a `_headers` file. Repeated header names are kept (Netlify joins them into one multi-value header). */
export function parseHeadersFile(text: string): HeaderRule[] {
  const rules: HeaderRule[] = [];
  let current: HeaderRule | undefined;
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1;
    const trimmed = raw.trim();
    if (isComment(trimmed)) return;
    if (!/^\s/.test(raw)) {
      if (!isPathOrUrl(trimmed) || /\s/.test(trimmed)) {
        throw syntaxError('_headers', line, `expected a path starting with "/", got "${trimmed}"`);
      }
      current = { path: trimmed, headers: [] };
      rules.push(current);
      return;
    }
    if (current === undefined) throw syntaxError('_headers', line, 'header line before any path');
    const colon = trimmed.indexOf(':');
    const name = colon > 0 ? trimmed.slice(0, colon).trim() : '';
    if (!HEADER_NAME.test(name)) {
      throw syntaxError('_headers', line, `expected "Name: value", got "${trimmed}"`);
    }
    current.headers.push([name, trimmed.slice(colon + 1).trim()]);
  });
  return rules;
}

/**
 * Reads a `_redirects` file. Query-parameter matches (`key=:value` between from and to)
 * and conditions (`Country=us` after the status) are accepted and skipped: the bundle
 * never writes them, and they do not change which path a rule serves.
 */
export function parseRedirectsFile(text: string): RedirectRule[] {
  const rules: RedirectRule[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1;
    const trimmed = raw.trim();
    if (isComment(trimmed)) return;
    const tokens = trimmed.split(/\s+/);
    const from = tokens[0] ?? '';
    if (!isPathOrUrl(from)) throw syntaxError('_redirects', line, `expected a path, got "${from}"`);
    let position = 1;
    while (position < tokens.length && isQueryMatch(tokens[position] ?? '')) position++;
    const to = tokens[position];
    if (to === undefined || !isPathOrUrl(to)) {
      throw syntaxError('_redirects', line, `expected a target path or URL after "${from}"`);
    }
    position++;
    let status = DEFAULT_REDIRECT_STATUS;
    let force = false;
    const statusMatch = STATUS.exec(tokens[position] ?? '');
    if (statusMatch) {
      status = Number(statusMatch[1]);
      force = statusMatch[2] === '!';
      position++;
    }
    for (const extra of tokens.slice(position)) {
      if (!extra.includes('=')) throw syntaxError('_redirects', line, `unexpected "${extra}"`);
    }
    rules.push({ from, to, status, force });
  });
  return rules;
}

function isQueryMatch(token: string): boolean {
  return token.includes('=') && !isPathOrUrl(token);
}

function assertClean(value: string, what: string): void {
  // A newline would start a new rule in either file: refuse rather than emit a broken file.
  if (/[\r\n]/.test(value))
    throw new TypeError(`${what} must not contain a line break: ${JSON.stringify(value)}`);
}

/** Writes a `_headers` file; `preamble` lines become `#` comments at the top. */
export function formatHeadersFile(rules: readonly HeaderRule[], preamble: readonly string[] = []): string {
  const blocks = rules.map((rule) => {
    assertClean(rule.path, 'a _headers path');
    if (!isPathOrUrl(rule.path) || /\s/.test(rule.path))
      throw new TypeError(`bad _headers path: ${rule.path}`);
    const lines = rule.headers.map(([name, value]) => {
      if (!HEADER_NAME.test(name)) throw new TypeError(`bad header name: ${JSON.stringify(name)}`);
      assertClean(value, `header ${name}`);
      return `  ${name}: ${value}`;
    });
    return [rule.path, ...lines].join('\n');
  });
  return `${[...preamble.map((line) => `# ${line}`), ...blocks].join('\n\n')}\n`;
}

/** Writes a `_redirects` file with aligned columns; `preamble` lines become `#` comments. */
export function formatRedirectsFile(
  rules: readonly RedirectRule[],
  preamble: readonly string[] = [],
): string {
  const width = Math.max(0, ...rules.map((rule) => rule.from.length));
  const lines = rules.map((rule) => {
    for (const value of [rule.from, rule.to]) {
      assertClean(value, 'a _redirects path');
      if (!isPathOrUrl(value) || /\s/.test(value)) throw new TypeError(`bad _redirects path: ${value}`);
    }
    return `${rule.from.padEnd(width)}  ${rule.to}  ${rule.status}${rule.force ? '!' : ''}`;
  });
  return `${[...preamble.map((line) => `# ${line}`), ...lines].join('\n')}\n`;
}
