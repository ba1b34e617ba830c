import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './documents.js';
import { links } from './markdown.js';

// The README is the front door: short enough to read in five minutes, and the way to
// every guide, so a guide nobody links to cannot exist unnoticed.
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

describe('README.md as the front door', () => {
  it('stays short: at most 250 lines', () => {
    expect(README.split('\n').length).toBeLessThanOrEqual(250);
  });

  it('links every guide in docs/', () => {
    const linked = new Set(links(README).map((link) => link.target.split('#')[0]));
    const guides = readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md'));
    expect(guides.filter((name) => !linked.has(`docs/${name}`))).toEqual([]);
  });

  it('shows the set-up commands and the tour', () => {
    for (const command of [
      'npm ci && npm run build',
      'npm test',
      'npm run preview',
      'npm run check',
      'npm run auth',
    ])
      expect(README).toContain(command);
  });
});
