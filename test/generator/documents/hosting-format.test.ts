import { describe, expect, it } from 'vitest';
import {
  formatHeadersFile,
  formatRedirectsFile,
  parseHeadersFile,
  parseRedirectsFile,
} from '../../../generator/emit/hosting-rules-format.js';
import { isCatalogError } from '../../../generator/errors.js';

describe('parseHeadersFile', () => {
  it('reads path blocks with indented headers and skips comments and blank lines', () => {
    const text = [
      '# generated',
      '/feed.xml',
      '  # a comment inside a block',
      '  Content-Type: application/rss+xml; charset=utf-8',
      '  Cache-Control: no-cache',
      '  Cache-Control: no-store',
      '',
      '/.well-known/api-catalog',
      '\tLink: </x>; rel="api-catalog"',
    ].join('\r\n');
    expect(parseHeadersFile(text)).toEqual([
      {
        path: '/feed.xml',
        headers: [
          ['Content-Type', 'application/rss+xml; charset=utf-8'],
          ['Cache-Control', 'no-cache'],
          ['Cache-Control', 'no-store'],
        ],
      },
      { path: '/.well-known/api-catalog', headers: [['Link', '</x>; rel="api-catalog"']] },
    ]);
  });

  it('keeps the colons of a header value after the first one', () => {
    const [rule] = parseHeadersFile('/a\n  Link: <https://x.example/a>; rel="b"\n');
    expect(rule?.headers).toEqual([['Link', '<https://x.example/a>; rel="b"']]);
  });

  it.each([
    ['a header before any path', '  X-A: b\n', 1],
    ['a path that is not a path', 'feed.xml\n  X-A: b\n', 1],
    ['a header line without a colon', '/a\n  no colon here\n', 2],
    ['a header name with a space', '/a\n  X A: b\n', 2],
  ])('refuses %s with the line number', (_name, text, line) => {
    try {
      parseHeadersFile(text);
      expect.unreachable();
    } catch (error) {
      expect(isCatalogError(error, 'OUTPUT_INVALID')).toBe(true);
      expect(isCatalogError(error) && error.details.line).toBe(line);
    }
  });
});

describe('parseRedirectsFile', () => {
  it('reads from, to, status and the force flag, with 301 as the default status', () => {
    const text = '# rules\n/agent-catalog  /agent-catalog.json  200!\n/old /new\n/a /b 302\n';
    expect(parseRedirectsFile(text)).toEqual([
      { from: '/agent-catalog', to: '/agent-catalog.json', status: 200, force: true },
      { from: '/old', to: '/new', status: 301, force: false },
      { from: '/a', to: '/b', status: 302, force: false },
    ]);
  });

  it('skips query-parameter matches and conditions without losing the target', () => {
    expect(parseRedirectsFile('/store id=:id /blog/:id 301 Country=us\n')).toEqual([
      { from: '/store', to: '/blog/:id', status: 301, force: false },
    ]);
  });

  it.each([
    ['a line with no target', '/only\n'],
    ['a target that is not a path', '/a b.json 200\n'],
    ['a stray word after the status', '/a /b 200 please\n'],
  ])('refuses %s', (_name, text) => {
    expect(() => parseRedirectsFile(text)).toThrow(expect.objectContaining({ code: 'OUTPUT_INVALID' }));
  });
});

describe('formatting the hosting rules', () => {
  it('writes headers that the parser reads back unchanged', () => {
    const rules = [
      { path: '/agent-catalog', headers: [['Content-Type', 'application/json'] as [string, string]] },
      { path: '/', headers: [['Link', '</.well-known/api-catalog>; rel="api-catalog"'] as [string, string]] },
    ];
    expect(parseHeadersFile(formatHeadersFile(rules, ['generated, do not edit']))).toEqual(rules);
  });

  it('writes redirects that the parser reads back unchanged', () => {
    const rules = [
      { from: '/agent-catalog/health', to: '/agent-catalog/health.json', status: 200, force: true },
      { from: '/x', to: '/y', status: 301, force: false },
    ];
    expect(parseRedirectsFile(formatRedirectsFile(rules, ['generated']))).toEqual(rules);
  });

  it('refuses a header value with a line break instead of writing a second rule', () => {
    expect(() => formatHeadersFile([{ path: '/a', headers: [['X-A', 'b\n/evil']] }])).toThrow(TypeError);
  });

  it('refuses a redirect path with a space', () => {
    expect(() => formatRedirectsFile([{ from: '/a b', to: '/c', status: 200, force: true }])).toThrow(
      TypeError,
    );
  });
});
