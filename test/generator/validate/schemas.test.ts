import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, test } from 'vitest';
import { buildComponentSchemas, jsonSchemasFromOpenApi } from '../../../generator/emit/openapi-schemas.js';
import { schemaValidator } from '../../../generator/validate/schemas.js';

describe('the schemas the gate validates with', () => {
  test('are valid JSON Schema 2020-12 (the gate skips this check at run time)', () => {
    const bundle = jsonSchemasFromOpenApi({ components: { schemas: buildComponentSchemas() } });
    if (bundle === undefined) throw new Error('no component schemas');
    const ajv = new Ajv2020({ strict: true, allowUnionTypes: true });
    expect(ajv.validateSchema(bundle)).toBe(true);
    expect(ajv.errors ?? null).toBeNull();
  });

  test('compile under strict mode', () => {
    for (const name of ['Catalog', 'Merchant', 'Checkout', 'Product', 'Health', 'Error'] as const) {
      expect(typeof schemaValidator(name)).toBe('function');
    }
  });
});
