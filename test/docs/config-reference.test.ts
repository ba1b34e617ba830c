import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configSchema } from '../../generator/config.js';
import { configReferenceRows, renderConfigReference } from '../../scripts/docs/config-reference.js';

const ROOT = join(import.meta.dirname, '..', '..');

describe('docs/config.md, generated from the config schema', () => {
  it('the checked-in file is what `npm run docs:config` writes', async () => {
    const checkedIn = await readFile(join(ROOT, 'docs', 'config.md'), 'utf8');
    // On failure: the schema changed and the reference did not; `npm run docs:config` regenerates it.
    expect(checkedIn, 'docs/config.md is out of date: run `npm run docs:config` and commit it').toBe(
      renderConfigReference(),
    );
  });

  it('lists every top-level key of the schema and its nested keys', () => {
    const keys = configReferenceRows().map((row) => row.key);
    for (const key of Object.keys(configSchema.shape)) expect(keys).toContain(key);
    expect(keys).toContain('upstream.retries');
    expect(keys).toContain('usage.allow_training');
  });

  it('states the defaults the schema applies', () => {
    const parsed = configSchema.parse({
      merchant: {
        name: 'M',
        url: 'https://m.example',
        contact: 'a@m.example',
        currency: 'USD',
        ships_to: ['US'],
      },
      auth_url: 'https://auth.m.example',
      upstream: { source: 'x.json' },
    });
    const rows = new Map(configReferenceRows().map((row) => [row.key, row.value]));
    expect(rows.get('upstream.retries')).toBe(`\`${JSON.stringify(parsed.upstream.retries)}\``);
    expect(rows.get('build.shrink_threshold')).toBe(`\`${JSON.stringify(parsed.build.shrink_threshold)}\``);
    expect(rows.get('auth_url')).toBe('required');
  });
});
