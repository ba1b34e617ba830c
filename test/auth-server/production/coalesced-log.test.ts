/**
 * The issuer's log lines reach stdout batched per event-loop turn (logger.ts
 * `coalescedWrite`); the output must be the same bytes, in the same order, as one write per
 * line, including whatever else was written to the stream meanwhile.
 */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { coalescedWrite, createJsonLogger } from '../../../auth-server/logger.js';

function recordingStream(): { stream: Writable; writes: string[] } {
  const writes: string[] = [];
  const stream = new Writable({
    writev(chunks, callback) {
      writes.push(chunks.map(({ chunk }) => String(chunk)).join(''));
      callback();
    },
    write(chunk, _encoding, callback) {
      writes.push(String(chunk));
      callback();
    },
  });
  return { stream, writes };
}

describe('log lines written once per event-loop turn', () => {
  it('keeps every line and every other write in order, in one write per turn', async () => {
    const { stream, writes } = recordingStream();
    const logger = createJsonLogger(coalescedWrite(stream));
    logger.info('first', { n: 1 });
    stream.write('listening on http://127.0.0.1:1\n');
    logger.warn('second', { n: 2 });
    await new Promise((resolve) => setImmediate(resolve));
    logger.info('third', { n: 3 });
    await new Promise((resolve) => setImmediate(resolve));

    const lines = writes.join('').split('\n').filter(Boolean);
    expect(lines[1]).toBe('listening on http://127.0.0.1:1');
    expect(lines.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line).msg)).toEqual([
      'first',
      'second',
      'third',
    ]);
    // The first turn's three writes left as one, the second turn's line as another.
    expect(writes).toHaveLength(2);
  });
});
