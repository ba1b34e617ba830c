/**
 * An independent reader of the agent feeds, written from the specifications and not from
 * the emitter: OpenAI's product-feed field reference (the required fields, their formats
 * and limits, "is_eligible_search must be true for is_eligible_checkout") and the ACP
 * release's JSON Schema, compiled here by ajv straight from the vendored file. The tests
 * read a built bundle's files with it.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import { parse } from 'csv-parse/sync';
import { REPO_ROOT } from '../pipeline/helpers.js';

/** OpenAI: "Include the nine required fields in Basic product data" plus the flags, seller, returns and geo fields. */
export const SPEC_REQUIRED = [
  'is_eligible_search',
  'is_eligible_checkout',
  'item_id',
  'title',
  'description',
  'url',
  'brand',
  'image_url',
  'price',
  'availability',
  'seller_name',
  'seller_url',
  'return_policy',
  'target_countries',
  'store_country',
];

/** What the spec says of each required field's value, as one predicate per field. */
const SPEC_FORMAT: Record<string, (value: unknown) => boolean> = {
  is_eligible_search: (value) => value === true || value === false,
  is_eligible_checkout: (value) => value === true || value === false,
  item_id: (value) => typeof value === 'string' && value.length >= 1 && value.length <= 100,
  title: (value) => typeof value === 'string' && value.length >= 1 && [...value].length <= 150,
  description: (value) => typeof value === 'string' && value.length >= 1 && [...value].length <= 5000,
  url: (value) => typeof value === 'string' && /^https?:\/\/\S+$/.test(value),
  brand: (value) => typeof value === 'string' && value.length >= 1 && [...value].length <= 70,
  image_url: (value) => typeof value === 'string' && /^https?:\/\/\S+$/.test(value),
  price: (value) => typeof value === 'string' && /^\d+\.\d{2} [A-Z]{3}$/.test(value),
  availability: (value) => value === 'in_stock' || value === 'out_of_stock' || value === 'preorder',
  seller_name: (value) => typeof value === 'string' && value.length >= 1 && [...value].length <= 70,
  seller_url: (value) => typeof value === 'string' && /^https?:\/\/\S+$/.test(value),
  return_policy: (value) => typeof value === 'string' && /^https?:\/\/\S+$/.test(value),
  target_countries: (value) =>
    Array.isArray(value) && value.length > 0 && value.every((code) => /^[A-Z]{2}$/.test(String(code))),
  store_country: (value) => typeof value === 'string' && /^[A-Z]{2}$/.test(value),
};

/** Every way one row breaks the spec's rules. */
export function specFaults(row: Record<string, unknown>): string[] {
  const faults = SPEC_REQUIRED.filter((field) => !(SPEC_FORMAT[field]?.(row[field]) ?? false)).map(
    (field) => `${field}: ${JSON.stringify(row[field])}`,
  );
  if (row.is_eligible_checkout === true && row.is_eligible_search !== true)
    faults.push('checkout without search');
  if (typeof row.sale_price === 'string') {
    const amount = (text: unknown) => Number(String(text).split(' ')[0]);
    if (!/^\d+\.\d{2} [A-Z]{3}$/.test(row.sale_price) || amount(row.sale_price) >= amount(row.price)) {
      faults.push(`sale_price ${row.sale_price} against price ${String(row.price)}`);
    }
  }
  return faults;
}

export interface OpenAiFeedFiles {
  manifest: { files: { path: string; format: string; rows: number }[]; row_count: number };
  jsonRows: Record<string, unknown>[];
  csvRows: Record<string, string>[];
}

export async function readOpenAiFeed(dir: string): Promise<OpenAiFeedFiles> {
  const manifest = JSON.parse(await readFile(join(dir, 'feeds/openai/manifest.json'), 'utf8'));
  const jsonRows: Record<string, unknown>[] = [];
  const csvRows: Record<string, string>[] = [];
  for (const file of manifest.files as { path: string; format: string }[]) {
    const text = gunzipSync(await readFile(join(dir, file.path))).toString('utf8');
    if (file.format === 'jsonl.gz') {
      for (const line of text.split('\n').filter((line) => line !== '')) jsonRows.push(JSON.parse(line));
    } else {
      csvRows.push(...(parse(text, { columns: true }) as Record<string, string>[]));
    }
  }
  return { manifest, jsonRows, csvRows };
}

/** The ACP release's own schema, compiled here; validates FeedMetadata and Product. */
export async function compileAcpSchema(): Promise<{
  metadata: (value: unknown) => boolean;
  product: (value: unknown) => boolean;
}> {
  const schema = JSON.parse(
    await readFile(join(REPO_ROOT, 'generator/validate/schemas/acp/schema.feed.json'), 'utf8'),
  );
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  formatsModule.default(ajv);
  ajv.addSchema(schema, 'acp');
  const metadata = ajv.getSchema('acp#/$defs/FeedMetadata');
  const product = ajv.getSchema('acp#/$defs/Product');
  if (metadata === undefined || product === undefined) throw new Error('ACP schema lacks its definitions');
  return { metadata: (value) => metadata(value) === true, product: (value) => product(value) === true };
}
