/**
 * Splits a streamed body into lines (JSON Lines, RFC-free but de facto: one value per line,
 * `\n` or `\r\n` ends), holding at most one line at a time, so a result file of gigabytes
 * (a Shopify bulk operation's) is read in constant memory. UTF-8 is decoded per line: a
 * line end is one byte that never occurs inside a multi-byte character, so cutting at it
 * never splits a character.
 */
import { describeSizeFix } from '../sources/advice.js';
import { upstreamError } from './attempt.js';

export interface LineLimits {
  /** The longest line accepted (one object of the document). */
  maxLineBytes: number;
  /** The most bytes the whole body may have. */
  maxTotalBytes: number;
}

/** A line of the body and its number (1-based, blank lines counted), for errors that name it. */
export interface NumberedLine {
  text: string;
  line: number;
}

function tooLarge(url: string, what: string, maxBytes: number, line?: number) {
  if (line === undefined)
    return upstreamError(
      'UPSTREAM_TOO_LARGE',
      `upstream ${what} from ${url} is larger than ${maxBytes} bytes`,
      url,
      {
        maxBytes,
      },
    );
  // The line bound is the config's per-response cap, so the message names it.
  return upstreamError(
    'UPSTREAM_TOO_LARGE',
    `upstream ${what} ${line} from ${url} is larger than ${maxBytes} bytes${describeSizeFix(maxBytes)}`,
    url,
    { maxBytes, line, field: 'upstream.max_response_bytes' },
  );
}

export async function* splitLines(
  chunks: AsyncIterable<unknown>,
  url: string,
  limits: LineLimits,
): AsyncGenerator<string> {
  for await (const { text } of splitNumberedLines(chunks, url, limits)) yield text;
}

export async function* splitNumberedLines(
  chunks: AsyncIterable<unknown>,
  url: string,
  limits: LineLimits,
): AsyncGenerator<NumberedLine> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let total = 0;
  let number = 0;
  const takeLine = (tail: Buffer): NumberedLine => {
    const text = Buffer.concat([...pending, tail]).toString('utf8');
    pending = [];
    pendingBytes = 0;
    number += 1;
    return { text: text.endsWith('\r') ? text.slice(0, -1) : text, line: number };
  };
  for await (const chunk of chunks) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    total += buffer.length;
    if (total > limits.maxTotalBytes) throw tooLarge(url, 'document', limits.maxTotalBytes);
    let start = 0;
    for (let end = buffer.indexOf(10, start); end !== -1; end = buffer.indexOf(10, start)) {
      if (pendingBytes + end - start > limits.maxLineBytes)
        throw tooLarge(url, 'line', limits.maxLineBytes, number + 1);
      const line = takeLine(buffer.subarray(start, end));
      start = end + 1;
      if (line.text.trim() !== '') yield line;
    }
    const rest = buffer.subarray(start);
    pendingBytes += rest.length;
    if (pendingBytes > limits.maxLineBytes) throw tooLarge(url, 'line', limits.maxLineBytes, number + 1);
    // A copy: the chunk's memory belongs to the stream and may be reused.
    if (rest.length > 0) pending.push(Buffer.from(rest));
  }
  const last = takeLine(Buffer.alloc(0));
  if (last.text.trim() !== '') yield last;
}
