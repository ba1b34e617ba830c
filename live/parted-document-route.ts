/**
 * Answers a parted document's URL with the whole document, streamed part by part
 * (`bundle-parts.ts`): the bytes, Content-Type, ETag (the manifest's digest), cache and
 * CORS headers its static file had, on every host alike. A part the manifest holds as text
 * (a document's head or tail) is sent from there. GET and HEAD; `If-None-Match` gives
 * 304 (weak comparison, RFC 9110 section 13.1.2); a single byte range gives 206 and an
 * unsatisfiable one 416 (RFC 9110 section 14); several ranges, or an `If-Range` that does not
 * match, get the whole document (a server "MAY ignore the Range header field", section 14.2).
 * A part is opened only when the stream reaches it, so the document is never in memory.
 */
import {
  PARTS_INDEX_PATH,
  type PartsIndex,
  type PartsManifest,
  parsePartsIndex,
  parsePartsManifest,
  partsEtag,
} from './bundle-parts.js';
import type { AssetOpener, LiveContext } from './live-context.js';

const METHODS = 'GET, HEAD';
// RFC 9110 section 15.4.5: a 304 leaves out the representation's own metadata.
const NOT_IN_304 = ['content-type', 'content-length'];

/** Index and manifests per deployment (keyed by its build time), as the search index is. */
let cache:
  | {
      key: string;
      index: Promise<PartsIndex | undefined>;
      manifests: Map<string, Promise<PartsManifest | undefined>>;
    }
  | undefined;

function cacheFor(context: LiveContext) {
  const key = `${context.settings.siteOrigin}@${context.settings.generated}`;
  if (cache?.key !== key) {
    const index = context
      .readAsset(PARTS_INDEX_PATH)
      .then((text) => (text === undefined ? undefined : parsePartsIndex(text)));
    cache = { key, index, manifests: new Map() };
    const stale = cache;
    index.catch(() => {
      if (cache === stale) cache = undefined;
    });
  }
  return cache;
}

async function manifestOf(context: LiveContext, path: string): Promise<PartsManifest | undefined> {
  const entry = cacheFor(context);
  let manifest = entry.manifests.get(path);
  if (manifest === undefined) {
    manifest = context
      .readAsset(path)
      .then((text) => (text === undefined ? undefined : parsePartsManifest(text)));
    entry.manifests.set(path, manifest);
    manifest.catch(() => entry.manifests.delete(path));
  }
  return manifest;
}

function matchesIfNoneMatch(header: string | null, etag: string): boolean {
  if (header === null) return false;
  if (header.trim() === '*') return true;
  const opaque = (tag: string) => (tag.startsWith('W/') ? tag.slice(2) : tag);
  return (header.match(/(?:W\/)?"[^"]*"/g) ?? []).some((tag) => opaque(tag) === opaque(etag));
}

type RangeAnswer =
  | { kind: 'whole' }
  | { kind: 'part'; start: number; end: number }
  | { kind: 'unsatisfiable' };

/** One `bytes=` range against `length` (RFC 9110 section 14.1.2); anything else is the whole document. */
export function parseRange(header: string | null, length: number): RangeAnswer {
  if (header === null) return { kind: 'whole' };
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (match === null) return { kind: 'whole' };
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return { kind: 'whole' };
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || length === 0) return { kind: 'unsatisfiable' };
    return { kind: 'part', start: Math.max(0, length - suffix), end: length - 1 };
  }
  const start = Number(first);
  const end = last === '' ? length - 1 : Math.min(Number(last), length - 1);
  if (last !== '' && Number(last) < start) return { kind: 'whole' };
  if (start >= length) return { kind: 'unsatisfiable' };
  return { kind: 'part', start, end };
}

interface Slice {
  path: string;
  /** The part's bytes when the manifest holds them (no file to open). */
  text?: string;
  length: number;
  /** Bytes of the part to skip, then to send. */
  skip: number;
  take: number;
}

function slicesOf(manifest: PartsManifest, start: number, end: number): Slice[] {
  const slices: Slice[] = [];
  let offset = 0;
  for (const part of manifest.parts) {
    const partEnd = offset + part.length - 1;
    if (part.length > 0 && partEnd >= start && offset <= end) {
      const from = Math.max(start, offset);
      slices.push({
        path: part.path ?? 'the parts manifest',
        ...(part.text !== undefined ? { text: part.text } : {}),
        length: part.length,
        skip: from - offset,
        take: Math.min(end, partEnd) - from + 1,
      });
    }
    offset += part.length;
  }
  return slices;
}

/** The bytes `[start, end]` of the document, each part opened when the reader gets to it. */
function streamSlices(slices: readonly Slice[], open: AssetOpener): ReadableStream<Uint8Array> {
  let next = 0;
  let current: { reader: ReadableStreamDefaultReader<Uint8Array>; slice: Slice; seen: number } | undefined;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        if (current === undefined) {
          const slice = slices[next];
          if (slice === undefined) return controller.close();
          next += 1;
          if (slice.text !== undefined) {
            const bytes = new TextEncoder().encode(slice.text).subarray(slice.skip, slice.skip + slice.take);
            if (bytes.length > 0) return controller.enqueue(bytes);
            continue;
          }
          const body = await open(slice.path);
          if (body === undefined) return controller.error(new Error(`the bundle has no ${slice.path}`));
          current = { reader: body.getReader(), slice, seen: 0 };
        }
        const { reader, slice } = current;
        const { done, value } = await reader.read();
        if (done) {
          // A part shorter than its manifest says is a broken deployment: end the body short.
          if (current.seen !== slice.length)
            return controller.error(new Error(`${slice.path} is shorter than its manifest says`));
          current = undefined;
          continue;
        }
        const at = current.seen;
        current.seen += value.length;
        const from = Math.max(0, slice.skip - at);
        const to = Math.min(value.length, slice.skip + slice.take - at);
        if (current.seen >= slice.skip + slice.take && current.seen < slice.length) {
          await reader.cancel();
          current = undefined;
        }
        if (to > from) return controller.enqueue(value.subarray(from, to));
      }
    },
    async cancel() {
      await current?.reader.cancel();
    },
  });
}

function headersOf(manifest: PartsManifest): Headers {
  const headers = new Headers();
  for (const [name, value] of manifest.headers) headers.append(name, value);
  headers.set('ETag', partsEtag(manifest));
  headers.set('Accept-Ranges', 'bytes');
  return headers;
}

function answer(request: Request, manifest: PartsManifest, open: AssetOpener): Response {
  const headers = headersOf(manifest);
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    headers.delete('content-type');
    headers.set('Allow', METHODS);
    return new Response(null, { status: 405, headers });
  }
  const etag = partsEtag(manifest);
  if (matchesIfNoneMatch(request.headers.get('if-none-match'), etag)) {
    for (const name of NOT_IN_304) headers.delete(name);
    return new Response(null, { status: 304, headers });
  }
  const ifRange = request.headers.get('if-range');
  const range =
    ifRange !== null && ifRange !== etag
      ? { kind: 'whole' as const }
      : parseRange(request.headers.get('range'), manifest.length);
  if (range.kind === 'unsatisfiable') {
    headers.set('Content-Range', `bytes */${manifest.length}`);
    headers.delete('content-type');
    return new Response(null, { status: 416, headers });
  }
  const [start, end] = range.kind === 'part' ? [range.start, range.end] : [0, manifest.length - 1];
  headers.set('Content-Length', String(end - start + 1));
  if (range.kind === 'part') headers.set('Content-Range', `bytes ${start}-${end}/${manifest.length}`);
  const status = range.kind === 'part' ? 206 : 200;
  const body =
    request.method === 'HEAD' || end < start ? null : streamSlices(slicesOf(manifest, start, end), open);
  return new Response(body, { status, headers });
}

/** The whole document when `pathname` is a parted document's URL; undefined for any other path. */
export async function handlePartedDocument(
  request: Request,
  pathname: string,
  context: LiveContext,
): Promise<Response | undefined> {
  const open = context.openAsset;
  if (open === undefined) return undefined;
  const index = await cacheFor(context).index.catch(() => undefined);
  const manifestPath = index?.documents[pathname];
  if (manifestPath === undefined || !Object.hasOwn(index?.documents ?? {}, pathname)) return undefined;
  const manifest = await manifestOf(context, manifestPath).catch(() => undefined);
  if (manifest === undefined) {
    return Response.json(
      { error: 'the document is not available' },
      { status: 503, headers: { 'cache-control': 'no-store' } },
    );
  }
  return answer(request, manifest, open);
}
