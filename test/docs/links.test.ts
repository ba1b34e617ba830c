import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { markdownFiles, ROOT } from './documents.js';
import { anchors, type Link, links } from './markdown.js';

// A clone must be readable on its own: every link in its documents leads to a file inside
// it (or a heading in one), never to ../shared/… or another path out of the repository.
// Web links (a scheme such as https: or mailto:) are not fetched: tests stay on loopback.

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** What is wrong with a link from `file`, or undefined when it leads somewhere real. */
function brokenLink(file: string, link: Link): string | undefined {
  if (SCHEME.test(link.target)) return undefined;
  const [pathPart = '', anchor] = link.target.split('#', 2);
  const path = decodeURIComponent(pathPart.split('?')[0] ?? '');
  if (path.startsWith('/')) return 'a root-relative path, which means nothing in a clone';
  const target = path === '' ? join(ROOT, file) : resolve(ROOT, dirname(file), path);
  const inside = relative(ROOT, target);
  if (inside.startsWith('..') || isAbsolute(inside)) return 'leads outside the repository';
  if (!existsSync(target)) return `no such file: ${inside}`;
  if (anchor && target.endsWith('.md') && !anchors(readFileSync(target, 'utf8')).has(anchor))
    return `no heading makes the anchor #${anchor} in ${inside}`;
  return undefined;
}

describe('links in the repository documents', () => {
  it('finds the documents, README.md and docs/ among them', () => {
    const files = markdownFiles();
    expect(files).toContain('README.md');
    expect(files.some((file) => file.startsWith('docs/'))).toBe(true);
  });

  it('every link leads to a file or heading inside the repository', () => {
    const problems: string[] = [];
    for (const file of markdownFiles()) {
      for (const link of links(readFileSync(join(ROOT, file), 'utf8'))) {
        const problem = brokenLink(file, link);
        if (problem) problems.push(`${file}:${link.line}: ${link.target}: ${problem}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('the checker itself refuses a link out of the repository, a missing file and a missing anchor', () => {
    expect(brokenLink('README.md', { line: 1, target: '../shared/STYLE.md' })).toBe(
      'leads outside the repository',
    );
    expect(brokenLink('docs/build.md', { line: 1, target: '../../x.md' })).toBe(
      'leads outside the repository',
    );
    expect(brokenLink('README.md', { line: 1, target: 'docs/no-such-guide.md' })).toMatch(/^no such file/);
    expect(brokenLink('README.md', { line: 1, target: '/etc/passwd' })).toMatch(/root-relative/);
    expect(brokenLink('README.md', { line: 1, target: '#no-such-heading' })).toMatch(/anchor/);
    expect(brokenLink('README.md', { line: 1, target: 'docs/build.md#exit-status' })).toBeUndefined();
    expect(brokenLink('README.md', { line: 1, target: 'https://example.com/x' })).toBeUndefined();
  });
});
