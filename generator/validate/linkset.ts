/**
 * The shape of the API catalog: an RFC 9264 §4.2 JSON linkset, as RFC 9727 §4.2 asks
 * of an api-catalog document. The top-level `linkset` member holds link context
 * objects; each names its context with `anchor` and holds, per link relation, an array
 * of target objects that each MUST have an `href` (RFC 9264 §4.2.3). For this site the
 * catalog's context must link its description, documentation and status.
 */
import { isRecord, stringField } from './bundle-layout.js';

const REQUIRED_RELATIONS = ['service-desc', 'service-doc', 'status'] as const;

type Report = (message: string) => void;

function isAbsoluteUrl(value: unknown): value is string {
  return typeof value === 'string' && URL.canParse(value);
}

function checkTargets(relation: string, targets: unknown, where: string, report: Report): void {
  if (!Array.isArray(targets) || targets.length === 0) {
    report(`${where}: "${relation}" must be a non-empty array of target objects (RFC 9264 §4.2.2)`);
    return;
  }
  targets.forEach((target, index) => {
    if (!isRecord(target) || !isAbsoluteUrl(target.href)) {
      report(`${where}: ${relation}[${index}] needs an absolute "href" (RFC 9264 §4.2.3)`);
    }
  });
}

function checkContext(context: unknown, index: number, report: Report): void {
  const where = `linkset[${index}]`;
  if (!isRecord(context)) {
    report(`${where} is not a link context object`);
    return;
  }
  if (context.anchor !== undefined && !isAbsoluteUrl(context.anchor)) {
    report(`${where}: anchor is not an absolute URL`);
  }
  for (const [relation, targets] of Object.entries(context)) {
    if (relation !== 'anchor') checkTargets(relation, targets, where, report);
  }
}

/** The context object anchored at the catalog: the first one with a service description. */
export function findCatalogContext(document: unknown): Record<string, unknown> | undefined {
  const contexts = isRecord(document) && Array.isArray(document.linkset) ? document.linkset : [];
  return contexts.find(
    (context): context is Record<string, unknown> =>
      isRecord(context) && isAbsoluteUrl(context.anchor) && Array.isArray(context['service-desc']),
  );
}

function firstHref(context: Record<string, unknown>, relation: string): string | undefined {
  const targets = context[relation];
  return Array.isArray(targets) ? stringField(targets[0], 'href') : undefined;
}

export function checkLinkset(
  document: Record<string, unknown>,
  expected: { catalogUrl: string; siteUrl: string } | undefined,
  report: Report,
): void {
  if (!Array.isArray(document.linkset) || document.linkset.length === 0) {
    report('"linkset" must be a non-empty array (RFC 9264 §4.2.1)');
    return;
  }
  document.linkset.forEach((context, index) => {
    checkContext(context, index, report);
  });
  const catalog = findCatalogContext(document);
  if (catalog === undefined) {
    report('no link context anchored at the catalog with a service-desc link');
    return;
  }
  for (const relation of REQUIRED_RELATIONS) {
    if (!Array.isArray(catalog[relation])) report(`the catalog context has no "${relation}" link`);
  }
  if (expected === undefined) return;
  if (catalog.anchor !== expected.catalogUrl) {
    report(`anchor ${String(catalog.anchor)} is not the catalog ${expected.catalogUrl}`);
  }
  const wanted: Record<string, string> = {
    'service-desc': `${expected.siteUrl}/api/openapi.json`,
    'service-doc': `${expected.siteUrl}/api/`,
    status: `${expected.catalogUrl}/health`,
  };
  for (const [relation, href] of Object.entries(wanted)) {
    const actual = firstHref(catalog, relation);
    if (actual !== undefined && actual !== href) report(`${relation} is ${actual}, expected ${href}`);
  }
}
