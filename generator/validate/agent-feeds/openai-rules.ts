/**
 * OpenAI's product-feed field rules, as its specification states them, applied to one
 * row: the required fields present and well formed, the length limits, the eligibility
 * dependency ("is_eligible_search must be true for is_eligible_checkout"), a sale price
 * below the price, a date for preorders, the variant fields beside `group_id`
 * (`listing_has_variations: true`, `variant_dict` an object of text values), and
 * plain-text fields that hold nothing an HTML reader takes for a tag (`plain-text.ts`
 * says why). The same rules read a JSON Lines row and a CSV
 * row: CSV cells are text, so booleans are the lower-case words and lists are
 * comma-separated there.
 */
import { OPENAI_LIMITS } from '../../emit/agent-feeds/openai-row.js';

type Cell = unknown;
export type RowRecord = Readonly<Record<string, Cell>>;

const REQUIRED_TEXT = [
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
  'store_country',
] as const;
const URL_FIELDS = ['url', 'image_url', 'seller_url', 'return_policy'] as const;
const LIMITS: Readonly<Record<string, number>> = { ...OPENAI_LIMITS, seller_name: 70 };
const AVAILABILITIES = new Set(['in_stock', 'out_of_stock', 'preorder', 'backorder', 'unknown']);
const AMOUNT = /^(\d+)(?:\.(\d{1,2}))? ([A-Z]{3})$/;
const COUNTRY = /^[A-Z]{2}$/;

function readBoolean(value: Cell): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 'true') return true;
  if (value === 'false') return false;
  return undefined;
}

function readList(value: Cell): string[] | undefined {
  if (Array.isArray(value)) return value.every((item) => typeof item === 'string') ? value : undefined;
  return typeof value === 'string' && value !== '' ? value.split(',').map((item) => item.trim()) : undefined;
}

function isHttpUrl(value: string): boolean {
  return URL.canParse(value) && /^https?:$/.test(new URL(value).protocol);
}

/** The amount in cents-like units of the price text ("12.5 USD" → 1250n), for comparing two prices. */
function amountOf(text: string): { units: bigint; currency: string } | undefined {
  const match = AMOUNT.exec(text);
  if (match === null) return undefined;
  return { units: BigInt(`${match[1]}${(match[2] ?? '').padEnd(2, '0')}`), currency: match[3] ?? '' };
}

/** What is wrong with one row, each as a short phrase naming the field. */
export function checkOpenAiRow(row: RowRecord): string[] {
  const faults: string[] = [];
  const search = readBoolean(row.is_eligible_search);
  const checkout = readBoolean(row.is_eligible_checkout);
  if (search === undefined) faults.push('is_eligible_search must be true or false');
  if (checkout === undefined) faults.push('is_eligible_checkout must be true or false');
  if (checkout === true && search !== true) faults.push('is_eligible_checkout needs is_eligible_search true');
  for (const field of REQUIRED_TEXT) {
    const value = row[field];
    if (typeof value !== 'string' || value.trim() === '') faults.push(`${field} is required`);
  }
  for (const [field, max] of Object.entries(LIMITS)) {
    const value = row[field];
    if (typeof value === 'string' && Array.from(value).length > max)
      faults.push(`${field} is longer than ${max}`);
  }
  for (const field of URL_FIELDS) {
    const value = row[field];
    if (typeof value === 'string' && value !== '' && !isHttpUrl(value))
      faults.push(`${field} is not an http(s) URL`);
  }
  faults.push(...checkPrices(row));
  const availability = row.availability;
  if (typeof availability === 'string' && !AVAILABILITIES.has(availability)) {
    faults.push(`availability "${availability}" is not a supported value`);
  }
  if (
    availability === 'preorder' &&
    (typeof row.availability_date !== 'string' || row.availability_date === '')
  ) {
    faults.push('availability_date is required for preorder');
  }
  faults.push(...checkVariantFields(row), ...checkPlainText(row));
  const targets = readList(row.target_countries);
  if (targets === undefined || targets.length === 0 || !targets.every((code) => COUNTRY.test(code))) {
    faults.push('target_countries must list ISO 3166-1 alpha-2 codes');
  }
  if (typeof row.store_country === 'string' && !COUNTRY.test(row.store_country)) {
    faults.push('store_country must be an ISO 3166-1 alpha-2 code');
  }
  if (typeof row.gtin === 'string' && row.gtin !== '' && !/^\d{8,14}$/.test(row.gtin)) {
    faults.push('gtin must be 8 to 14 digits');
  }
  return faults;
}

function checkPrices(row: RowRecord): string[] {
  const price = typeof row.price === 'string' ? amountOf(row.price) : undefined;
  if (typeof row.price === 'string' && row.price !== '' && price === undefined) {
    return ['price must read like "79.99 USD"'];
  }
  if (typeof row.sale_price !== 'string' || row.sale_price === '') return [];
  const sale = amountOf(row.sale_price);
  if (sale === undefined) return ['sale_price must read like "59.99 USD"'];
  if (price !== undefined && (sale.currency !== price.currency || sale.units >= price.units)) {
    return ['sale_price must be below price, in the same currency'];
  }
  return [];
}

/** `group_id` comes with `listing_has_variations: true`; `variant_dict` maps option names to text. */
function checkVariantFields(row: RowRecord): string[] {
  const faults: string[] = [];
  const flag = row.listing_has_variations;
  const listed = flag === undefined || flag === '' ? undefined : readBoolean(flag);
  if (flag !== undefined && flag !== '' && listed === undefined)
    faults.push('listing_has_variations must be true or false');
  const grouped = typeof row.group_id === 'string' && row.group_id !== '';
  if (grouped && listed !== true) faults.push('listing_has_variations must be true beside group_id');
  const dict = typeof row.variant_dict === 'string' ? parseObject(row.variant_dict) : row.variant_dict;
  if (row.variant_dict !== undefined && row.variant_dict !== '' && !isTextMap(dict)) {
    faults.push('variant_dict must map option names to text values');
  }
  return faults;
}

function parseObject(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isTextMap(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((entry) => typeof entry === 'string')
  );
}

/** A `<` followed by a letter, `/`, `!` or `?` opens a tag to an HTML reader (WHATWG HTML 13.2.5.6). */
const TAG_OPEN = /<[A-Za-z/!?]/;

function checkPlainText(row: RowRecord): string[] {
  return (['title', 'description'] as const).flatMap((field) => {
    const value = row[field];
    return typeof value === 'string' && TAG_OPEN.test(value)
      ? [`${field} holds text an HTML reader takes for a tag`]
      : [];
  });
}
