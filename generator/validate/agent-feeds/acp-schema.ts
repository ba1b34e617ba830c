/**
 * The ACP feed against the JSON Schema of the release it follows (vendored, see
 * `../schemas/acp/README.md`): `metadata.json` as a FeedMetadata and each line of
 * `products.jsonl` as a Product. Compiled once per process; the schema's `example`
 * annotations are declared as a keyword so that strict mode still refuses real unknowns.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import feedSchema from '../schemas/acp/schema.feed.json' with { type: 'json' };

const SCHEMA_ID = 'https://example.com/schemas/feed/bundle.schema.json';

export interface AcpValidators {
  metadata: ValidateFunction;
  product: ValidateFunction;
}

let compiled: AcpValidators | undefined;

export function acpValidators(): AcpValidators {
  if (compiled !== undefined) return compiled;
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  ajv.addKeyword('example');
  formatsModule.default(ajv, ['date-time', 'uri']);
  ajv.addSchema(feedSchema);
  const get = (name: string): ValidateFunction => {
    const validate = ajv.getSchema(`${SCHEMA_ID}#/$defs/${name}`);
    if (validate === undefined) throw new TypeError(`the ACP feed schema has no $defs/${name}`);
    return validate;
  };
  compiled = { metadata: get('FeedMetadata'), product: get('Product') };
  return compiled;
}

/** Ajv's errors as short readable lines ("/variants/0/price/amount must be integer"). */
export function describeSchemaErrors(errors: readonly ErrorObject[] | null | undefined, max = 5): string {
  return (errors ?? [])
    .slice(0, max)
    .map((error) => `${error.instancePath || '(root)'} ${error.message ?? 'is invalid'}`)
    .join('; ');
}
