/**
 * Reads a request body as UTF-8 text with a byte limit and a deadline, so a client that
 * sends too much, never finishes, or sends bytes that are not UTF-8 gets a 4xx instead of
 * holding the handler or reaching the parser. Web-standard streams only.
 */
import { concatBytes } from './concat-bytes.js';

export type BodyResult = { ok: true; text: string } | BodyFailure;
export type BytesResult = { ok: true; bytes: Uint8Array<ArrayBuffer> } | BodyFailure;
export type BodyFailure = { ok: false; status: 400 | 408 | 413; reason: string };

export interface BodyLimits {
  maxBytes: number;
  deadlineMs: number;
}

export async function readBodyText(request: Request, limits: BodyLimits): Promise<BodyResult> {
  const read = await readBodyBytes(request, limits);
  return read.ok ? decode(read.bytes) : read;
}

/** The body's bytes as sent (a signature is computed over them, not over decoded text). */
export async function readBodyBytes(request: Request, limits: BodyLimits): Promise<BytesResult> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > limits.maxBytes) return tooLarge(limits);
  if (!request.body) return { ok: true, bytes: new Uint8Array(0) };
  const reader = request.body.getReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), limits.deadlineMs);
  });
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const step = await Promise.race([reader.read(), deadline]);
      if (step === 'timeout') {
        void reader.cancel().catch(() => undefined);
        return {
          ok: false,
          status: 408,
          reason: `the request body did not arrive within ${limits.deadlineMs} ms`,
        };
      }
      if (step.done) break;
      size += step.value.byteLength;
      if (size > limits.maxBytes) {
        void reader.cancel().catch(() => undefined);
        return tooLarge(limits);
      }
      chunks.push(step.value);
    }
  } catch {
    return { ok: false, status: 400, reason: 'the request body could not be read' };
  } finally {
    clearTimeout(timer);
  }
  return { ok: true, bytes: concatBytes(chunks, size) };
}

function decode(bytes: Uint8Array): BodyResult {
  try {
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return { ok: false, status: 400, reason: 'the request body is not valid UTF-8' };
  }
}

function tooLarge(limits: BodyLimits): BodyFailure {
  return { ok: false, status: 413, reason: `the request body is larger than ${limits.maxBytes} bytes` };
}
