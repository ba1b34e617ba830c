/**
 * The bundle's HTML pages read by an independent validator, html-validate, with its
 * recommended rules: the landing page `/`, the API docs `/api/` and `404.html`, as the
 * emitters write them for a bundle on its own host (model (a), where all three exist).
 * Three rules are adjusted, each for a stated reason, in `RULES` below; everything else in
 * `html-validate:recommended` applies. A broken page must fail, so the set-up is not vacuous.
 */
import { HtmlValidate, type Message, type RuleConfig } from 'html-validate';
import { describe, expect, it } from 'vitest';
import { emitBundle } from '../../../generator/emit/index.js';
import { makeSampleConfig, makeSamplePlan, SAMPLE_CONFIG_INPUT } from '../../helpers/sample-plan.js';

const RULES: RuleConfig = {
  // A style rule: the HTML Living Standard reads the DOCTYPE case-insensitively, and the
  // templates write the lowercase `<!doctype html>` the standard's own examples use.
  'doctype-style': 'off',
  // `<pre tabindex="0" role="region" aria-label="…">`: a code block that scrolls must take
  // keyboard focus (axe's scrollable-region-focusable, WCAG 2.1.1), and focus needs a named
  // role; a <section> cannot replace a <pre> without losing its preformatted text.
  'prefer-native-element': ['error', { exclude: ['region'] }],
  // `<ul aria-label="…">`: ARIA 1.2 lets authors name a list (role "list" supports naming
  // from author); the rule only recommends against it by default.
  'aria-label-misuse': ['error', { allowAnyNamable: true }],
};

const validator = new HtmlValidate({ extends: ['html-validate:recommended'], rules: RULES });

const ownHost = makeSamplePlan({
  config: makeSampleConfig({ ...SAMPLE_CONFIG_INPUT, site_url: 'https://agents.pomona.example' }),
});
const artifacts = emitBundle(ownHost);

function page(path: string): string {
  const artifact = artifacts.find((item) => item.path === path);
  if (artifact === undefined) throw new Error(`the bundle has no ${path}`);
  return artifact.body;
}

async function problems(html: string, name: string): Promise<string[]> {
  const report = await validator.validateString(html, name);
  return report.results
    .flatMap((result) => result.messages)
    .map(
      (message: Message) => `${name}:${message.line}:${message.column} ${message.ruleId}: ${message.message}`,
    );
}

describe('the HTML pages, read by html-validate (recommended rules)', () => {
  it.each([
    ['/', 'index.html'],
    ['/api/', 'api/index.html'],
    ['404', '404.html'],
  ])('when %s is validated then html-validate reports nothing', async (_name, path) => {
    expect(await problems(page(path), path)).toEqual([]);
  });

  it('when a page nests a block in a paragraph and repeats an id then the validator refuses it', async () => {
    const broken =
      '<!doctype html><html lang="en"><head><title>t</title></head><body><p><div id="a"></div></p><span id="a"></span></body></html>';
    const found = await problems(broken, 'broken.html');
    expect(found.some((line) => line.includes('no-dup-id'))).toBe(true);
    expect(found.length).toBeGreaterThan(1);
  });
});
