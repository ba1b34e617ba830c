import { describe, expect, it } from 'vitest';
import {
  FOLDER_FOLDED_OVER,
  FOLDER_SHOWN,
  foldLargeFolders,
  renderRootMarkdown,
  servedPaths,
} from '../../../generator/preview/root-page.js';

describe('servedPaths', () => {
  it('names each file by the path it is served at, and leaves out hidden files and 404.html', () => {
    const redirects = [
      { from: '/agent-catalog', to: '/agent-catalog.json', status: 200, force: false },
      { from: '/old', to: '/agent-catalog', status: 301, force: false },
    ];
    const files = ['agent-catalog.json', 'api/index.html', 'llms.txt', '404.html', '_headers', '.env'];
    expect(servedPaths(files, { redirects })).toEqual(['/agent-catalog', '/api/', '/llms.txt']);
  });
});

describe('foldLargeFolders', () => {
  const pages = (count: number) =>
    Array.from({ length: count }, (_, i) => `/products/p${String(i).padStart(5, '0')}.md`);

  it('when a folder holds a page per product then it shows the first few and how many more', () => {
    const entries = foldLargeFolders(['/llms.txt', ...pages(FOLDER_FOLDED_OVER + 5), '/robots.txt'].sort());
    const underProducts = entries.filter((entry) => entry.path.startsWith('/products/'));
    expect(underProducts.filter((entry) => entry.more === 0)).toHaveLength(FOLDER_SHOWN);
    expect(underProducts.find((entry) => entry.more > 0)).toEqual({
      path: '/products/',
      more: FOLDER_FOLDED_OVER + 5 - FOLDER_SHOWN,
    });
    expect(entries.map((entry) => entry.path)).toEqual(expect.arrayContaining(['/llms.txt', '/robots.txt']));
  });

  it('when no folder is large then every path is listed as it is', () => {
    const paths = ['/a', '/b/c', ...pages(FOLDER_FOLDED_OVER)];
    expect(foldLargeFolders(paths)).toEqual(paths.map((path) => ({ path, more: 0 })));
  });

  it('when the root holds many files then it is never folded', () => {
    const root = Array.from({ length: FOLDER_FOLDED_OVER + 1 }, (_, i) => `/f${i}.txt`);
    expect(foldLargeFolders(root).every((entry) => entry.more === 0)).toBe(true);
  });
});

describe('renderRootMarkdown', () => {
  it('when a path holds a backtick or angle bracket then it cannot break out of its code span or link', () => {
    const markdown = renderRootMarkdown([{ path: '/a`b>c', more: 0 }]);
    expect(markdown).toContain('- [`/a%60b%3Ec`](</a%60b%3Ec>)');
  });
});
