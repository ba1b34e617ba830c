import { describe, expect, it } from 'vitest';
import { parseArticle, parseProductContent } from '../../../generator/content/load-content.js';
import { buildPackagingText } from '../../../generator/content/packaging.js';
import { CONTENT_LIMITS } from '../../../generator/content/schema.js';
import { isCatalogError } from '../../../generator/errors.js';

const FILE = 'content/products/green-glow.md';

function contentErrorOf(run: () => unknown): { file: unknown; field: unknown } {
  try {
    run();
  } catch (error) {
    if (isCatalogError(error, 'CONTENT_INVALID'))
      return { file: error.details.file, field: error.details.field };
    throw error;
  }
  throw new Error('expected CONTENT_INVALID');
}

describe('product content', () => {
  it('when the packaging is given as fields then one text with both units is built', () => {
    const parsed = parseProductContent(
      FILE,
      '---\npackaging:\n  count: 6\n  fl_oz: 12\n  ml: 355\n  bottle: glass bottle\n---\n',
    );
    expect(parsed.fields.packaging).toBe('6 x 12 fl oz (355 mL) glass bottles');
    expect(parsed.slug).toBe('green-glow');
  });

  it('when the packaging text lacks the mL size then the error names the file and packaging', () => {
    expect(
      contentErrorOf(() => parseProductContent(FILE, '---\npackaging: 12 fl oz glass bottle\n---\n')),
    ).toEqual({
      file: FILE,
      field: 'packaging',
    });
  });

  it('when the two units disagree then the packaging is refused', () => {
    expect(buildPackagingText({ count: 1, fl_oz: 16, ml: 355, bottle: 'glass bottle' }).ok).toBe(false);
    expect(buildPackagingText({ count: 1, fl_oz: 16, ml: 473, bottle: 'glass bottle' })).toEqual({
      ok: true,
      text: '1 x 16 fl oz (473 mL) glass bottle',
    });
  });

  it('when a nutrition value is neither number nor text then the error names nutrition.<key>', () => {
    const text = '---\nnutrition:\n  calories: [1, 2]\n---\n';
    expect(contentErrorOf(() => parseProductContent(FILE, text)).field).toBe('nutrition.calories');
  });

  it('when an unknown front matter key is present then it is refused', () => {
    expect(contentErrorOf(() => parseProductContent(FILE, '---\nflavour: typo\n---\n')).file).toBe(FILE);
  });

  it('when the Markdown body is present then it becomes the description', () => {
    const parsed = parseProductContent(FILE, '---\nflavor: Kale\n---\n\nA bright juice & more.\n');
    expect(parsed.fields.description).toBe('A bright juice & more.');
  });

  it('when the description is in both front matter and body then it is refused', () => {
    const text = '---\ndescription: One\n---\nTwo\n';
    expect(contentErrorOf(() => parseProductContent(FILE, text)).field).toBe('description');
  });

  it('when the description exceeds the documented maximum then it is refused', () => {
    const text = `---\nflavor: Kale\n---\n${'a'.repeat(CONTENT_LIMITS.descriptionChars + 1)}\n`;
    expect(contentErrorOf(() => parseProductContent(FILE, text)).field).toBe('body');
  });

  it('when a field holds a control character then it is refused', () => {
    const text = '---\nflavor: "Kale\\u0007bell"\n---\n';
    expect(contentErrorOf(() => parseProductContent(FILE, text)).field).toBe('flavor');
  });

  it('when emoji, non-Latin text and markup characters are used then they are kept as written', () => {
    const parsed = parseProductContent(FILE, '---\nflavor: "Peach <& \\"crème\\"> 🍑 桃"\n---\n');
    expect(parsed.fields.flavor).toBe('Peach <& "crème"> 🍑 桃');
  });

  it('when the front matter is JavaScript then it is refused, never evaluated', () => {
    const text = '---js\n{ flavor: (globalThis.__evaluated = true, "x") }\n---\n';
    expect(contentErrorOf(() => parseProductContent(FILE, text)).file).toBe(FILE);
    expect((globalThis as Record<string, unknown>).__evaluated).toBeUndefined();
  });

  it('when the YAML is malformed then the error names the file', () => {
    expect(contentErrorOf(() => parseProductContent(FILE, '---\nflavor: [unclosed\n---\n')).file).toBe(FILE);
  });

  it('when the file is named after an Arabic handle with harakat then it is read, its slug in composed form', () => {
    const handle = 'مُقَوَّى-إشارة';
    const parsed = parseProductContent(
      `content/products/${handle.normalize('NFD')}.md`,
      '---\nflavor: x\n---\n',
    );
    expect(parsed.slug).toBe(handle.normalize('NFC'));
  });

  it('when the file name is not a slug then it is refused', () => {
    expect(contentErrorOf(() => parseProductContent('content/products/Green Glow.md', '')).file).toBe(
      'content/products/Green Glow.md',
    );
  });
});

describe('articles', () => {
  const ARTICLE = 'content/articles/how-we-press.md';

  it('when updated is a YAML date then it is kept as the calendar date written', () => {
    const article = parseArticle(ARTICLE, '---\ntitle: How we press\nupdated: 2026-10-01\n---\n# Press\n');
    expect(article).toEqual({
      slug: 'how-we-press',
      title: 'How we press',
      updated: '2026-10-01',
      body: '# Press\n',
    });
  });

  it('when the title is missing then the error names title', () => {
    expect(contentErrorOf(() => parseArticle(ARTICLE, '---\ndescription: x\n---\nBody\n')).field).toBe(
      'title',
    );
  });

  it('when updated is not a date then it is refused', () => {
    const text = '---\ntitle: T\nupdated: last tuesday\n---\nBody\n';
    expect(contentErrorOf(() => parseArticle(ARTICLE, text)).field).toBe('updated');
  });
});
