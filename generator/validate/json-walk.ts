/**
 * A JSON document that lists records (the catalog's `products`, `kb/products.json`) read
 * record by record from its text in pieces, never as one text or one tree: a catalog of a
 * million products is about 2.6 GB, past the longest string V8 makes. The pieces are fed
 * to a push parser (@streamparser/json) synchronously, because the gate's checkers are
 * synchronous, and each record is handed over as soon as it is complete and then dropped
 * from the tree the parser builds; what is left at the end is the document's envelope
 * (every other field, with an empty list). @streamparser/json was chosen over parsing each
 * record's slice with JSON.parse because it checks the whole document's syntax as it goes;
 * on a 109 MB catalog it took 6.0 s and 60 MB of RSS where JSON.parse took 3.6 s and 380 MB.
 */
import { JSONParser } from '@streamparser/json';

/** Where the records are: the root object's `products`, or also the root itself when it is an array. */
export type ListPlace = 'products' | 'root-or-products';

export type JsonEnvelope =
  | {
      ok: true;
      /** The document without its records: the root array as `[]`, or the object with `products: []`. */
      value: unknown;
      /** How many records the list holds, or undefined when there is no list where `place` says. */
      records: number | undefined;
    }
  | { ok: false; error: string };

type WalkEvent = { record: unknown } | { end: JsonEnvelope };

/** The paths the parser reports: each record, and the root (the envelope once the records are gone). */
const PATHS: Readonly<Record<ListPlace, string[]>> = {
  products: ['$.products.*', '$'],
  'root-or-products': ['$.*', '$.products.*', '$'],
};

/** Bytes (or characters) written to the parser at once: the records of one piece are held until they are handed on. */
const PIECE = 1 << 20;

function* piecesOf(texts: Iterable<string | Uint8Array>): Generator<string | Uint8Array> {
  for (const text of texts)
    for (let at = 0; at < text.length; at += PIECE)
      yield typeof text === 'string' ? text.slice(at, at + PIECE) : text.subarray(at, at + PIECE);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The records and then the envelope of a document given in pieces (its bytes or its text),
 * in order. A syntax error ends the walk with `{ ok: false }` after the records read before it.
 */
function* walkJson(texts: Iterable<string | Uint8Array>, place: ListPlace): Generator<WalkEvent> {
  // keepStack: true keeps the envelope's fields; each record is cut from its list by hand.
  const parser = new JSONParser({ paths: PATHS[place], keepStack: true });
  let ready: unknown[] = [];
  let root: { value: unknown } | undefined;
  let records = 0;
  parser.onValue = ({ value, parent, stack }) => {
    if (stack.length === 0) root = { value };
    if (!Array.isArray(parent)) return;
    const inRootList = stack.length === 1 && place === 'root-or-products';
    const inProducts = stack.length === 2 && stack[1]?.key === 'products';
    if (inRootList || inProducts) {
      // The record was the list's last element: cut it so the tree never holds two records.
      parent.length -= 1;
      records += 1;
      ready.push(value);
    }
  };
  try {
    for (const piece of piecesOf(texts)) {
      parser.write(piece);
      const handed = ready;
      ready = [];
      for (const record of handed) yield { record };
    }
    if (!parser.isEnded) parser.end();
  } catch (error) {
    yield { end: { ok: false, error: messageOf(error) } };
    return;
  }
  for (const record of ready) yield { record };
  if (root === undefined) yield { end: { ok: false, error: 'Unexpected end of JSON input' } };
  else
    yield { end: { ok: true, value: root.value, records: hasList(root.value, place) ? records : undefined } };
}

function hasList(value: unknown, place: ListPlace): boolean {
  if (place === 'root-or-products' && Array.isArray(value)) return true;
  return (
    typeof value === 'object' && value !== null && Array.isArray((value as { products?: unknown }).products)
  );
}

/** The envelope of a document walked to its end (its records counted, not kept). */
export function readJsonEnvelope(texts: Iterable<string | Uint8Array>, place: ListPlace): JsonEnvelope {
  for (const event of walkJson(texts, place)) if ('end' in event) return event.end;
  return { ok: false, error: 'Unexpected end of JSON input' };
}

/** Each record of a document's list, in order; nothing after a syntax error (the envelope reports it). */
export function* walkJsonRecords(texts: Iterable<string | Uint8Array>, place: ListPlace): Generator<unknown> {
  for (const event of walkJson(texts, place)) if ('record' in event) yield event.record;
}
