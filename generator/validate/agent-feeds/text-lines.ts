/**
 * A JSON Lines document read a line at a time: splitting a feed of 100,000 products whole
 * makes an array of every line beside the text, where the checkers need one line at once.
 */
import { StringDecoder } from 'node:string_decoder';
import { documentChunks } from '../parse-once.js';
import type { BundleFiles } from '../problem.js';
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

/**
 * Each line of a bundle's document with its 1-based number, the lines `textLines` gives of
 * its text: read chunk by chunk when the bundle has its bytes (a parted document part by
 * part, never joined), else from its text. Nothing when there is no such file.
 */
export function* documentLines(files: BundleFiles, path: string): Generator<[line: string, number: number]> {
  const chunks = documentChunks(files, path);
  if (chunks === undefined) {
    const text = files.get(path);
    if (text !== undefined) yield* textLines(text);
    return;
  }
  // The decoder holds back a character cut between two chunks, as decoding the whole would read it.
  const decoder = new StringDecoder('utf8');
  let number = 1;
  let rest = '';
  for (const chunk of chunks) {
    const text = rest + decoder.write(chunk);
    let from = 0;
    for (let end = text.indexOf('\n'); end >= 0; end = text.indexOf('\n', from)) {
      yield [text.slice(from, end), number];
      number += 1;
      from = end + 1;
    }
    rest = text.slice(from);
  }
  yield [rest + decoder.end(), number];
}
