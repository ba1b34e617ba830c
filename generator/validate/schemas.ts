/**
 * JSON Schema validation of the published JSON documents: the catalog, the health
 * document and every product record of `kb/products.json`, against the component
 * schemas of the API description (the one source of truth, `emit/openapi-schemas.ts`).
 * This and `ucp-profile.ts` (the vendored UCP schemas) are the modules that import ajv. The schemas are compiled once per process
 * (2020-12 dialect, formats from ajv-formats); after that a check is linear in products.
 * Spec 4 rule 1, "count equal to the number of entries in products", is checked here
 * too, because no JSON Schema keyword can say it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import {
  buildComponentSchemas,
  jsonSchemasFromOpenApi,
  SCHEMA_BUNDLE_ID,
  type SchemaName,
} from '../emit/openapi-schemas.js';
import { PACKAGE_ROOT } from '../paths.js';
import { isRecord, KB_PRODUCTS_FILE, locateDocuments, parseJson } from './bundle-layout.js';
import { catalogEnvelopeOf, kbEnvelopeOf, kbProductsOf, listedRecords } from './listed-records.js';
import type { BundleFiles, Problem } from './problem.js';

/** More errors than this for one document add nothing a reader can act on. */
const MAX_ERRORS_PER_DOCUMENT = 20;

type Validators = Readonly<Record<SchemaName, ValidateFunction>>;
let compiled: Validators | undefined;

function compileValidators(): Validators {
  const bundle = jsonSchemasFromOpenApi({ components: { schemas: buildComponentSchemas() } });
  if (bundle === undefined) throw new TypeError('the API description has no component schemas');
  // Union types (["string", "null"]) are how OpenAPI 3.1 writes nullable fields. The
  // schemas are this package's own constant output: checking them against the 2020-12
  // meta-schema here would compile that meta-schema on every run (most of a small build's
  // validation), so a test does it once (test/generator/validate/schemas.test.ts); strict
  // mode still refuses an unknown keyword or format when a schema compiles.
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true, validateSchema: false });
  formatsModule.default(ajv, ['date-time', 'uri']);
  ajv.addSchema(bundle);
  const get = (name: SchemaName): ValidateFunction => {
    const validate = ajv.getSchema(`${SCHEMA_BUNDLE_ID}#/$defs/${name}`);
    if (validate === undefined) throw new TypeError(`no schema ${name} in the API description`);
    return validate;
  };
  return {
    Catalog: get('Catalog'),
    Merchant: get('Merchant'),
    Checkout: get('Checkout'),
    Product: get('Product'),
    Variant: get('Variant'),
    Image: get('Image'),
    Option: get('Option'),
    PriceRange: get('PriceRange'),
    Health: get('Health'),
    Error: get('Error'),
  };
}

/** The compiled validator of one component schema (compiled on first use, then cached). */
export function schemaValidator(name: SchemaName): ValidateFunction {
  compiled ??= compileValidators();
  return compiled[name];
}

function describeError(error: ErrorObject, prefix: string): string {
  const where = `${prefix}${error.instancePath}` || '(root)';
  const allowed = error.keyword === 'enum' && isRecord(error.params) ? error.params.allowedValues : undefined;
  return `${where}: ${error.message ?? error.keyword}${Array.isArray(allowed) ? ` (${allowed.join(', ')})` : ''}`;
}

/** Problems of one value against one schema; at most MAX_ERRORS_PER_DOCUMENT of them. */
export function validateAgainst(
  name: SchemaName,
  value: unknown,
  path: string,
  instancePrefix = '',
  /** The schema the value is part of (a product of the Catalog), as the messages name it. */
  label: SchemaName = name,
): Problem[] {
  const validate = schemaValidator(name);
  if (validate(value)) return [];
  return (validate.errors ?? []).slice(0, MAX_ERRORS_PER_DOCUMENT).map((error) => ({
    path,
    rule: 'schema',
    message: `${label}: ${describeError(error, instancePrefix)}`,
  }));
}

/**
 * Published schemas vendored under `schemas/vendor/` (see its README for source and
 * licence), each with the definition a document is validated against.
 */
const VENDORED = {
  'mcp-server-card': { file: 'mcp-server-card.schema.json', pointer: '#/$defs/ServerCard' },
} as const;
export type VendoredSchema = keyof typeof VENDORED;
const vendored = new Map<VendoredSchema, ValidateFunction>();

function vendoredValidator(name: VendoredSchema): ValidateFunction {
  const cached = vendored.get(name);
  if (cached !== undefined) return cached;
  const { file, pointer } = VENDORED[name];
  const schema = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'schemas', 'vendor', file), 'utf8')) as object;
  // Not strict: a published schema may use annotations ajv does not know; it is not ours to edit.
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  formatsModule.default(ajv, ['uri']);
  ajv.addSchema(schema, name);
  const validate = ajv.getSchema(`${name}${pointer}`);
  if (validate === undefined) throw new TypeError(`no ${pointer} in schemas/vendor/${file}`);
  vendored.set(name, validate);
  return validate;
}

/** Problems of one value against a vendored published schema. */
export function validateAgainstVendored(name: VendoredSchema, value: unknown, path: string): Problem[] {
  const validate = vendoredValidator(name);
  if (validate(value)) return [];
  return (validate.errors ?? []).slice(0, MAX_ERRORS_PER_DOCUMENT).map((error) => ({
    path,
    rule: 'schema',
    message: `${name}: ${describeError(error, '')}`,
  }));
}

const DEFAULT_FILES: Readonly<Partial<Record<SchemaName, string>>> = {
  Catalog: 'agent-catalog.json',
  Health: 'agent-catalog/health.json',
};

function checkDocument(files: BundleFiles, path: string | undefined, name: 'Health'): Problem[] {
  if (path === undefined) {
    const expected = DEFAULT_FILES[name] ?? name;
    return [{ path: expected, rule: 'missing', message: `no ${name} document in the bundle` }];
  }
  const parsed = parseJson(files, path);
  // Unreadable JSON is reported once, by checkJsonSyntax.
  if (parsed === undefined || !parsed.ok) return [];
  return validateAgainst(name, parsed.value, path);
}

/**
 * The catalog, its envelope and then each product on its own against the Catalog schema's
 * product definition, as the products are walked (`listed-records.ts`): the whole catalog
 * is never one value. The messages and paths are those of validating it whole
 * (`Catalog: /products/123/price: ...`), at most MAX_ERRORS_PER_DOCUMENT of them.
 */
function checkCatalog(files: BundleFiles, path: string | undefined): Problem[] {
  if (path === undefined) {
    const expected = DEFAULT_FILES.Catalog ?? 'Catalog';
    return [{ path: expected, rule: 'missing', message: 'no Catalog document in the bundle' }];
  }
  const envelope = catalogEnvelopeOf(files, path);
  // Unreadable JSON is reported once, by checkJsonSyntax.
  if (envelope === undefined || !envelope.ok) return [];
  const problems = validateAgainst('Catalog', envelope.value, path);
  const products = envelope.records === undefined ? undefined : listedRecords(files, path, 'products');
  if (products === undefined) return problems;
  let index = 0;
  for (const product of products) {
    if (problems.length >= MAX_ERRORS_PER_DOCUMENT) break;
    problems.push(...validateAgainst('Product', product, path, `/products/${index}`, 'Catalog'));
    index += 1;
  }
  const { count } = isRecord(envelope.value) ? envelope.value : {};
  if (count !== envelope.records) {
    problems.push({
      path,
      rule: 'count',
      message: `count is ${String(count)} but products has ${envelope.records} entries`,
    });
  }
  return problems;
}

function checkKbProducts(files: BundleFiles): Problem[] {
  const envelope = kbEnvelopeOf(files);
  if (envelope === undefined || !envelope.ok) return [];
  const records = envelope.records === undefined ? undefined : kbProductsOf(files);
  if (records === undefined) {
    return [{ path: KB_PRODUCTS_FILE, rule: 'schema', message: 'expected an array of products' }];
  }
  const prefix = Array.isArray(envelope.value) ? '' : '/products';
  const problems: Problem[] = [];
  let index = 0;
  for (const record of records) {
    if (problems.length >= MAX_ERRORS_PER_DOCUMENT) break;
    problems.push(...validateAgainst('Product', record, KB_PRODUCTS_FILE, `${prefix}/${index}`));
    index += 1;
  }
  return problems;
}

/**
 * A catalog with no product tells every agent the store sells nothing: it is accepted only
 * when the build was told so (`--allow-empty` writes `allow_empty: true` in the health
 * document), never because a whole store's products were refused.
 */
function checkNotEmpty(files: BundleFiles, catalogFile: string | undefined, healthFile: string | undefined) {
  const catalog = catalogFile === undefined ? undefined : catalogEnvelopeOf(files, catalogFile);
  if (catalog === undefined || !catalog.ok || !isRecord(catalog.value) || catalog.value.count !== 0)
    return [];
  const health = healthFile === undefined ? undefined : parseJson(files, healthFile);
  if (health?.ok === true && isRecord(health.value) && health.value.allow_empty === true) return [];
  return [
    {
      path: catalogFile ?? 'agent-catalog.json',
      rule: 'empty',
      message:
        'the catalog has no product (count 0) and was not built with --allow-empty; an agent would be told the store sells nothing',
    },
  ];
}

/** The bundle checker: catalog, health and the knowledge-base product records. */
export function checkSchemas(files: BundleFiles): Problem[] {
  const { catalogFile, healthFile } = locateDocuments(files);
  return [
    ...checkCatalog(files, catalogFile),
    ...checkDocument(files, healthFile, 'Health'),
    ...checkNotEmpty(files, catalogFile, healthFile),
    ...checkKbProducts(files),
  ];
}
