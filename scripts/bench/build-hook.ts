/**
 * A stand-in for a Netlify build hook or a Cloudflare Pages deploy hook on loopback, for the
 * hooks bench: a `POST` is answered 200 at once (the receiver's trigger waits 5 s at most
 * for an answer, as the hosts answer before they build) and then runs the incremental build
 * as a child process, measured (wall time, CPU, peak RSS), as the regenerate workflow would.
 * It records when the trigger came and how many came: one change must start one build.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type MeasuredRun, runMeasured } from './child-process.js';

export interface BuildHookTrigger {
  /** `performance.now()` when the trigger's request arrived. */
  triggeredAt: number;
  /** The build it started, measured; settles when the child process has exited. */
  build: Promise<MeasuredRun>;
}

export interface BuildHook {
  url: string;
  /** Triggers received so far. */
  calls(): number;
  /** The first trigger; rejects when none has come within `timeoutMs`. */
  firstTrigger(timeoutMs: number): Promise<BuildHookTrigger>;
  /** Resolves once every build a trigger started has exited (its scratch folder may then go). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1; each `POST` runs `command args` in `cwd`. */
export async function startBuildHook(
  command: string,
  args: readonly string[],
  cwd: string,
): Promise<BuildHook> {
  let calls = 0;
  const builds: Promise<unknown>[] = [];
  let settle: (trigger: BuildHookTrigger) => void = () => {};
  const first = new Promise<BuildHookTrigger>((resolve) => {
    settle = resolve;
  });
  const server = createServer((request, response) => {
    const triggeredAt = performance.now();
    request.resume();
    request.on('end', () => {
      if (request.method !== 'POST') {
        response.writeHead(405, { allow: 'POST' }).end();
        return;
      }
      calls += 1;
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      // Only the first trigger builds: the bench announces one change, and counts the rest.
      if (calls > 1) return;
      const build = runMeasured(command, args, { cwd });
      builds.push(build.catch(() => undefined));
      settle({ triggeredAt, build });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/build_hooks/bench`,
    calls: () => calls,
    firstTrigger(timeoutMs) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no rebuild trigger within ${timeoutMs} ms`)), timeoutMs);
      });
      return Promise.race([first, timeout]).finally(() => clearTimeout(timer));
    },
    idle: async () => {
      await Promise.all(builds);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
