/**
 * The V8 heap of the worker's isolate under `wrangler pages dev`, read through its DevTools
 * inspector (Chrome DevTools Protocol, `Runtime.getHeapUsage`): what the isolate holds, not
 * the workerd process around it. wrangler's inspector proxy accepts a loopback `Origin`
 * only, so the socket sends one.
 */
import { WebSocket } from 'undici';

export interface IsolateHeap {
  /** Bytes of live objects in the isolate's heap. */
  usedBytes: number;
  /** Bytes the heap has reserved. */
  totalBytes: number;
}

/** At 1,000,000 products the inspector was once slower than 10 s to answer after the first search. */
const ANSWER_LIMIT_MS = 30_000;

interface Target {
  webSocketDebuggerUrl?: unknown;
}

function isHeapUsage(value: unknown): value is { usedSize: number; totalSize: number } {
  if (typeof value !== 'object' || value === null) return false;
  const { usedSize, totalSize } = value as Record<string, unknown>;
  return typeof usedSize === 'number' && typeof totalSize === 'number';
}

/** The heap of the first worker the inspector at `inspector` (`http://127.0.0.1:<port>`) lists. */
export async function isolateHeap(inspector: string): Promise<IsolateHeap> {
  const targets = (await (
    await fetch(`${inspector}/json`, { signal: AbortSignal.timeout(ANSWER_LIMIT_MS) })
  ).json()) as Target[];
  const url = targets[0]?.webSocketDebuggerUrl;
  if (typeof url !== 'string') throw new Error(`the inspector at ${inspector} lists no worker`);
  const socket = new WebSocket(url, { headers: { origin: 'http://localhost' } });
  try {
    return await new Promise<IsolateHeap>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the inspector did not answer')), ANSWER_LIMIT_MS);
      socket.addEventListener('error', () => reject(new Error(`cannot connect to ${url}`)));
      socket.addEventListener('open', () =>
        socket.send(JSON.stringify({ id: 1, method: 'Runtime.getHeapUsage' })),
      );
      socket.addEventListener('message', (event) => {
        const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown };
        if (message.id !== 1) return;
        clearTimeout(timer);
        if (isHeapUsage(message.result))
          resolve({ usedBytes: message.result.usedSize, totalBytes: message.result.totalSize });
        else reject(new Error('the inspector answered without a heap usage'));
      });
    });
  } finally {
    socket.close();
  }
}
