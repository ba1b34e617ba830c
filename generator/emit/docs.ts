/**
 * The documentation page at `/api/` (spec 5.2): one HTML page generated from the API
 * description and the real build, with inline CSS, no JavaScript and no third-party
 * assets. The Handlebars template (`templates/docs/api.hbs`) is read and compiled once
 * per process; after that rendering is a pure function of the view. Handlebars escapes
 * every value for HTML, so no text is escaped by hand here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Handlebars from 'handlebars';
import type { Artifact } from '../artifact.js';
import { TEMPLATES_DIR } from '../paths.js';
import type { BuildPlan } from '../plan.js';
import { describeCatalogFields } from './catalog-fields.js';
import { buildDocsView, type DocsView } from './docs-view.js';
import { buildOpenApiDocument } from './openapi.js';
import { API_DOCS_PATH, filePathOf } from './sitemap-pages.js';

export const DOCS_FILE = filePathOf(API_DOCS_PATH);
export const DOCS_PUBLIC_PATH = API_DOCS_PATH;
export const DOCS_MEDIA_TYPE = 'text/html; charset=utf-8';

let template: Handlebars.TemplateDelegate<DocsView> | undefined;

function compileTemplate(): Handlebars.TemplateDelegate<DocsView> {
  const source = readFileSync(join(TEMPLATES_DIR, 'docs', 'api.hbs'), 'utf8');
  // strict: a name the view does not have is a bug in this module, not an empty string.
  return Handlebars.create().compile<DocsView>(source, { strict: true });
}

export function renderDocsPage(view: DocsView): string {
  template ??= compileTemplate();
  return template(view);
}

export function emitDocs(plan: BuildPlan): Artifact[] {
  const view = buildDocsView(buildOpenApiDocument(plan.config, describeCatalogFields(plan)), plan);
  return [
    { path: DOCS_FILE, publicPath: DOCS_PUBLIC_PATH, mediaType: DOCS_MEDIA_TYPE, body: renderDocsPage(view) },
  ];
}
