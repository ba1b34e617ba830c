/**
 * The front matter a merchant writes in `content/products/<slug>.md` and
 * `content/articles/<slug>.md`, as zod schemas. These add what commerce platforms do not
 * carry (flavor, brand, packaging, ingredients, nutrition, benefits, certifications). Limits on
 * size and characters are part of the schema so that nothing a merchant types can break
 * a document downstream (JSON, XML feed, Markdown, llms.txt): control characters are
 * refused everywhere, and every string and list has a documented maximum.
 */
import { z } from 'zod';
import { buildPackagingText, checkPackagingText } from './packaging.js';

/** Documented maxima (docs/content.md, "Merchant content"). */
export const CONTENT_LIMITS = {
  shortText: 200,
  /** Google's limit for g:brand, which a product's brand becomes. */
  brandText: 70,
  packagingText: 300,
  listItems: 50,
  descriptionChars: 5_000,
  articleBodyChars: 100_000,
  fileBytes: 256 * 1024,
} as const;

// C0 controls except tab and newline, DEL, C1 controls, the two line separators that
// end a line in JavaScript but not in JSON, and the bidirectional embeddings, overrides
// and isolates the upstream's text loses in normalisation (normalise/clean-text.ts);
// carriage returns are normalised before this.
const FORBIDDEN_CHARACTERS =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
  /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069\uFFFE\uFFFF]/;

export function hasForbiddenCharacters(text: string): boolean {
  return FORBIDDEN_CHARACTERS.test(text);
}

function text(max: number, options: { multiline?: boolean } = {}) {
  return z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`)
    .refine((value) => !hasForbiddenCharacters(value), 'must not contain control characters')
    .refine((value) => options.multiline === true || !value.includes('\n'), 'must be a single line');
}

const list = z
  .array(text(CONTENT_LIMITS.shortText))
  .min(1, 'must list at least one item')
  .max(CONTENT_LIMITS.listItems, `must list at most ${CONTENT_LIMITS.listItems} items`);

const structuredPackaging = z
  .object({
    count: z.number().int().min(1).max(1000).describe('bottles in one purchase'),
    fl_oz: z.number().positive().max(1000).describe('size of one bottle in US fluid ounces'),
    ml: z.number().positive().max(30_000).describe('size of one bottle in millilitres'),
    bottle: text(60).describe('bottle type, e.g. "glass bottle"'),
  })
  .strict();

/** Packaging as free text (which must state both units) or as fields the text is built from. */
const packaging = z.union([
  text(CONTENT_LIMITS.packagingText).superRefine((value, ctx) => {
    const problem = checkPackagingText(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }),
  structuredPackaging.transform((fields, ctx) => {
    const built = buildPackagingText(fields);
    if (!built.ok) {
      ctx.addIssue({ code: 'custom', message: built.problem });
      return z.NEVER;
    }
    return built.text;
  }),
]);

const nutritionKey = /^[a-z][a-z0-9_]{0,39}$/;

const nutrition = z
  .record(
    z.string().regex(nutritionKey, 'nutrition keys must be lowercase snake_case, e.g. sugar_g'),
    z.union([z.number().finite().min(0), text(CONTENT_LIMITS.shortText)]),
  )
  .refine((value) => Object.keys(value).length > 0, 'must give at least one value')
  .refine((value) => Object.keys(value).length <= CONTENT_LIMITS.listItems, 'too many keys');

export const productFrontMatterSchema = z
  .object({
    flavor: text(CONTENT_LIMITS.shortText).optional(),
    brand: text(CONTENT_LIMITS.brandText).optional(),
    packaging: packaging.optional(),
    ingredients: z.union([list, text(CONTENT_LIMITS.descriptionChars)]).optional(),
    nutrition: nutrition.optional(),
    benefits: list.optional(),
    certifications: list.optional(),
    description: text(CONTENT_LIMITS.descriptionChars, { multiline: true }).optional(),
  })
  .strict();

export type ProductFrontMatter = z.output<typeof productFrontMatterSchema>;

/** YAML turns `2026-10-01` into a Date; keep the calendar date the merchant wrote. */
const dateText = z.preprocess(
  (value) =>
    value instanceof Date && !Number.isNaN(value.getTime()) ? value.toISOString().slice(0, 10) : value,
  z.union([z.iso.date(), z.iso.datetime({ offset: true })], {
    error: 'expected a date such as 2026-10-01',
  }),
);

export const articleFrontMatterSchema = z
  .object({
    title: text(CONTENT_LIMITS.shortText),
    description: text(500).optional(),
    updated: dateText.optional(),
  })
  .strict();

export type ArticleFrontMatter = z.output<typeof articleFrontMatterSchema>;
