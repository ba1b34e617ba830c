/**
 * A JSON Lines document read a line at a time: splitting a feed of 100,000 products whole
 * makes an array of every line beside the text, where the checkers need one line at once.
 */
import { StringDecoder } from 'node:string_decoder';
import { documentChunks } from './parse-once.js';
import type { BundleFiles } from './problem.js';
/** Each line of a text with its 1-based number, without splitting the whole text at once. */
export function* textLines(text: string): Generator<[line: string, number: number]> {
  let from = 0;
  for (let number = 1; from <= text.length; number += 1) {
    const end = text.indexOf('\n', from);
    const to = end < 0 ? text.length : end;
    yield [text.slice(from, to), number];
    from = to + 1;
  }
}

/** Bytes decoded at most this many at once: a document held as one buffer is still read in pieces. */
const PIECE_BYTES = 1 << 20;

/**
 * A bundle's document as text, a piece at a time: decoded chunk by chunk when the bundle
 * has its bytes (a parted document part by part, never joined; a large chunk a mebibyte
 * at a time), else its text as one piece. Undefined when there is no such file. The pieces
 * joined are the text `files.get` gives, and none ends inside a surrogate pair, so their
 * UTF-8 is the text's.
 */
export function documentTexts(files: BundleFiles, path: string): Iterable<string> | undefined {
  const chunks = documentChunks(files, path);
  if (chunks === undefined) {
    const text = files.get(path);
    return text === undefined ? undefined : [text];
  }
  return decodedPieces(chunks);
}

/** Byte chunks decoded as text a mebibyte at a time, never one string of them all. */
export function* decodedPieces(chunks: Iterable<Buffer>): Generator<string> {
  // The decoder holds back a character cut between two chunks, as decoding the whole would read it.
  const decoder = new StringDecoder('utf8');
  for (const chunk of chunks) {
    for (let at = 0; at < chunk.length; at += PIECE_BYTES)
      yield decoder.write(chunk.subarray(at, at + PIECE_BYTES));
  }
  yield decoder.end();
}

/** Each line of a text given in pieces, with its 1-based number: the lines `textLines` gives of the pieces joined. */
export function* linesOf(texts: Iterable<string>): Generator<[line: string, number: number]> {
  let number = 1;
  let rest = '';
  for (const piece of texts) {
    const text = rest + piece;
    let from = 0;
    for (let end = text.indexOf('\n'); end >= 0; end = text.indexOf('\n', from)) {
      yield [text.slice(from, end), number];
      number += 1;
      from = end + 1;
    }
    rest = text.slice(from);
  }
  yield [rest, number];
}

/**
 * Each line of a bundle's document with its 1-based number, the lines `textLines` gives of
 * its text, read a piece at a time (`documentTexts`). Nothing when there is no such file.
 */
export function* documentLines(files: BundleFiles, path: string): Generator<[line: string, number: number]> {
  const texts = documentTexts(files, path);
  if (texts !== undefined) yield* linesOf(texts);
}
