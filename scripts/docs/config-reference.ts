/**
 * Renders docs/config.md, the reference of `catalog.config.json`, from the generator's zod
 * schema (through zod's own JSON Schema export), so the reference cannot drift from the
 * code: every key, its type, its default or whether it is required, its limits and the
 * doc line its `.describe()` gives. A key without a doc line is an error, not a blank cell.
 * `npm run docs:config` writes the file; a test fails when the checked-in copy differs.
 */
import { z } from 'zod';
import { configSchema, ENV_OVERRIDES } from '../../generator/config.js';

interface JsonSchema {
  type?: string;
  description?: string;
  default?: unknown;
  enum?: unknown[];
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
}

interface Row {
  key: string;
  type: string;
  value: string;
  limits: string;
  meaning: string;
}

function typeOf(schema: JsonSchema): string {
  if (schema.enum) return schema.enum.map((value) => `\`${JSON.stringify(value)}\``).join(', ');
  if (schema.type === 'array') return `list of ${schema.items ? typeOf(schema.items) : 'values'}`;
  if (schema.format === 'uri') return 'URL';
  return schema.type ?? 'any';
}

function limitsOf(schema: JsonSchema): string {
  const limits: string[] = [];
  if (schema.exclusiveMinimum !== undefined) limits.push(`> ${schema.exclusiveMinimum}`);
  if (schema.minimum !== undefined) limits.push(`≥ ${schema.minimum}`);
  if (schema.maximum !== undefined) limits.push(`≤ ${schema.maximum}`);
  if (schema.minLength !== undefined && schema.minLength > 1) limits.push(`≥ ${schema.minLength} characters`);
  if (schema.maxLength !== undefined) limits.push(`≤ ${schema.maxLength} characters`);
  if (schema.minItems !== undefined)
    limits.push(`≥ ${schema.minItems} item${schema.minItems === 1 ? '' : 's'}`);
  if (schema.pattern !== undefined) limits.push(`matches \`${schema.pattern}\``);
  if (schema.items?.pattern !== undefined) limits.push(`each matches \`${schema.items.pattern}\``);
  return limits.join(', ');
}

function defaultOf(schema: JsonSchema, required: boolean): string {
  if (required) return 'required';
  if (schema.default === undefined || schema.type === 'object') return 'optional';
  return `\`${JSON.stringify(schema.default)}\``;
}

// Pipes would break a Markdown table cell.
function cell(text: string): string {
  return text.replaceAll('|', '\\|');
}

function collectRows(schema: JsonSchema, prefix: string, rows: Row[]): void {
  const required = new Set(schema.required ?? []);
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const key = `${prefix}${name}`;
    if (!property.description)
      throw new TypeError(`config key ${key} has no .describe() doc line (generator/config.ts)`);
    rows.push({
      key,
      type: typeOf(property),
      value: defaultOf(property, required.has(name)),
      limits: limitsOf(property),
      meaning: property.description,
    });
    if (property.type === 'object') collectRows(property, `${key}.`, rows);
  }
}

/** The reference's rows, one per key, nested keys after their parent. */
export function configReferenceRows(): Row[] {
  const schema = z.toJSONSchema(configSchema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  const rows: Row[] = [];
  collectRows(schema, '', rows);
  return rows;
}

/** The whole text of docs/config.md. */
export function renderConfigReference(): string {
  const table = configReferenceRows().map(
    (row) =>
      `| \`${row.key}\` | ${cell(row.type)} | ${cell(row.value)} | ${cell(row.limits)} | ${cell(row.meaning)} |`,
  );
  const env = Object.entries(ENV_OVERRIDES).map(([name, key]) => `| \`${name}\` | \`${key}\` |`);
  return [
    '<!-- Generated from generator/config.ts by `npm run docs:config`; do not edit by hand. -->',
    '',
    '# Config reference: `catalog.config.json`',
    '',
    'Every key the generator reads, its type, whether it is required or its default, its',
    'limits and what it means. This page is generated from the zod schema in',
    "`generator/config.ts` (each key's `.describe()` line), and a test fails when it is out of",
    'date: after changing the schema, run `npm run docs:config`.',
    '',
    'Unknown keys are refused (a typo is an error, not a silent default) with the nearest known',
    'key, e.g. `catalog.config.json: contnet_dir: unknown key; did you mean content_dir?`, and',
    'every error names the file and the field, e.g. `catalog.config.json: upstream.retries: Too',
    'small: expected number to be >=0`; the build then exits 2. Relative paths (`upstream.source`,',
    "`content_dir`) are resolved against the config file's folder. Which value wins when a flag,",
    'a variable and the file disagree: [docs/build.md](build.md#where-each-value-comes-from).',
    '',
    '| key | type | default | limits | meaning |',
    '| --- | --- | --- | --- | --- |',
    ...table,
    '',
    '## Environment variables',
    '',
    'Each overrides its key in the file (and is overridden by the matching flag); an empty',
    'value is ignored.',
    '',
    '| variable | key |',
    '| --- | --- |',
    ...env,
    '',
  ].join('\n');
}
