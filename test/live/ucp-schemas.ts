/**
 * The vendored UCP 2026-04-08 JSON Schemas compiled for tests: the catalog responses of
 * the live handler are checked against the release's own definitions, offline.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';

const SOURCE = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'vendor',
  'ucp-2026-04-08',
  'source',
);

function jsonFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? jsonFiles(path) : name.endsWith('.json') ? [path] : [];
  });
}

let ajv: Ajv2020 | undefined;

function compiler(): Ajv2020 {
  if (ajv) return ajv;
  ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  formatsModule.default(ajv);
  for (const file of jsonFiles(join(SOURCE, 'schemas'))) {
    ajv.addSchema(JSON.parse(readFileSync(file, 'utf8')) as object);
  }
  return ajv;
}

export type UcpDefinition =
  | 'catalog_search.json#/$defs/search_response'
  | 'catalog_lookup.json#/$defs/lookup_response'
  | 'catalog_lookup.json#/$defs/get_product_response'
  | 'types/error_response.json';

export function ucpValidator(definition: UcpDefinition): ValidateFunction {
  const validate = compiler().getSchema(`https://ucp.dev/schemas/shopping/${definition}`);
  if (!validate) throw new Error(`no UCP schema ${definition}`);
  return validate;
}

/** The schema errors of a value, empty when it is valid. */
export function ucpErrors(definition: UcpDefinition, value: unknown): string[] {
  const validate = ucpValidator(definition);
  return validate(value)
    ? []
    : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message}`);
}
