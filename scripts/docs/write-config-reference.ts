/**
 * `npm run docs:config`: writes docs/config.md from the config schema. The one command to
 * run after adding or changing a key in `generator/config.ts` or `config-sections.ts`.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderConfigReference } from './config-reference.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const target = join(ROOT, 'docs', 'config.md');
writeFileSync(target, renderConfigReference());
process.stdout.write(`wrote ${target}\n`);
