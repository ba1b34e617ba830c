/**
 * Checks of the published API description: the facts spec part 9 and part 4 fix
 * (OpenAPI 3.1.0, version 1.0.0, getCatalog and getHealth at the catalog paths, the
 * catalog's 500 error body) and that its component schemas are exactly the ones the
 * gate validates the data with. A description that drifted from the schemas would
 * promise clients something the gate never checked, so drift is a problem too. The
 * full OpenAPI meta-schema check is left to an independent validator in the tests.
 */
import { isDeepStrictEqual } from 'node:util';
import {
  API_VERSION,
  CATALOG_OPERATION_PATH,
  HEALTH_OPERATION_PATH,
  OPENAPI_VERSION,
} from '../emit/openapi.js';
import { buildComponentSchemas } from '../emit/openapi-schemas.js';
import { isRecord, OPENAPI_FILE, parseJson, stringField } from './bundle-layout.js';
import type { BundleFiles, Problem } from './problem.js';

function problem(message: string): Problem {
  return { path: OPENAPI_FILE, rule: 'openapi', message };
}

function operationAt(document: Record<string, unknown>, path: string): Record<string, unknown> | undefined {
  const paths = document.paths;
  if (!isRecord(paths)) return undefined;
  const item = paths[path];
  return isRecord(item) && isRecord(item.get) ? item.get : undefined;
}

function checkOperation(
  document: Record<string, unknown>,
  path: string,
  operationId: string,
  statuses: readonly string[],
): Problem[] {
  const operation = operationAt(document, path);
  if (operation === undefined) return [problem(`no GET operation at ${path}`)];
  const problems: Problem[] = [];
  if (operation.operationId !== operationId) {
    problems.push(
      problem(`GET ${path} has operationId ${String(operation.operationId)}, expected ${operationId}`),
    );
  }
  const responses = isRecord(operation.responses) ? operation.responses : {};
  for (const status of statuses) {
    if (!isRecord(responses[status])) problems.push(problem(`${operationId} has no ${status} response`));
  }
  return problems;
}

function checkServers(document: Record<string, unknown>): Problem[] {
  const servers = document.servers;
  const url = Array.isArray(servers) ? stringField(servers[0], 'url') : undefined;
  if (url === undefined || !URL.canParse(url)) return [problem('servers[0].url is not an absolute URL')];
  return url.endsWith('/') ? [problem(`servers[0].url ${url} ends with a slash`)] : [];
}

export function checkOpenApi(files: BundleFiles): Problem[] {
  const parsed = parseJson(files, OPENAPI_FILE);
  if (parsed === undefined) return [problem('the API description is missing')];
  if (!parsed.ok) return [];
  const document = parsed.value;
  if (!isRecord(document)) return [problem('the API description is not a JSON object')];
  const problems: Problem[] = [];
  if (document.openapi !== OPENAPI_VERSION) problems.push(problem(`openapi is not ${OPENAPI_VERSION}`));
  if (stringField(document.info, 'version') !== API_VERSION) {
    problems.push(problem(`info.version is not ${API_VERSION}`));
  }
  problems.push(...checkServers(document));
  problems.push(...checkOperation(document, CATALOG_OPERATION_PATH, 'getCatalog', ['200', '500']));
  problems.push(...checkOperation(document, HEALTH_OPERATION_PATH, 'getHealth', ['200']));
  const components = isRecord(document.components) ? document.components : {};
  if (!isDeepStrictEqual(components.schemas, buildComponentSchemas())) {
    problems.push(problem('components.schemas differ from the schemas the data is validated with'));
  }
  return problems;
}
