/**
 * A shared launcher for the tests that need a real headless Chromium (the docs page,
 * the preview server, the issuer's sign-in and consent screens). It finds Debian's
 * chromium (or `CHROMIUM_PATH`), launches it with a fresh user-data directory so tests
 * never share cookies or caches, and cleans that directory up on close. Tests that need
 * it declare `requires(BROWSER)` and skip, saying what to set, when no Chromium is found.
 */
import { accessSync, constants } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';
import type { Requirement } from './requirements.js';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

// Flags that keep a headless run quiet and offline: nothing may reach past loopback.
const LAUNCH_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The Chromium executable to use: `CHROMIUM_PATH`, then `chromium` on the PATH, then the usual places. */
export function chromiumPath(): string | undefined {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) return isExecutable(fromEnv) ? fromEnv : undefined;
  const onPath = (process.env.PATH ?? '')
    .split(delimiter)
    .filter((dir) => dir !== '')
    .map((dir) => join(dir, 'chromium'));
  return [...onPath, ...CANDIDATES].find(isExecutable);
}

export const BROWSER_SKIP_REASON =
  'browser suites, no Chromium found: set CHROMIUM_PATH or install chromium (apt-get install chromium)';

/** True when browser tests cannot run. */
export const noBrowser = chromiumPath() === undefined;

/** Browser suites: `describe(name, requires(BROWSER), …)` skips, saying what to set, without Chromium. */
export const BROWSER: Requirement = { met: !noBrowser, skipReason: BROWSER_SKIP_REASON };

export interface LaunchOptions {
  /** Viewport size; default 1280 x 900. */
  viewport?: { width: number; height: number };
  /** Refuse requests to anything but loopback (default true); blocked URLs are recorded. */
  loopbackOnly?: boolean;
  /** Run pages with JavaScript off (default on), to prove a page needs none. */
  javaScriptEnabled?: boolean;
  /** Let a test inject its own script (axe-core) into a page whose CSP forbids scripts. */
  bypassCSP?: boolean;
}

/** A browser context with its own fresh profile; `close()` also deletes the profile. */
export interface TestBrowser {
  context: BrowserContext;
  /** URLs the context tried to load off loopback (and were aborted). */
  blockedRequests: string[];
  close(): Promise<void>;
}

function isLoopback(url: string): boolean {
  if (url.startsWith('data:') || url.startsWith('about:') || url.startsWith('blob:')) return true;
  try {
    const { hostname } = new URL(url);
    return hostname === '127.0.0.1' || hostname === 'localhost' || hostname === '[::1]';
  } catch {
    return false;
  }
}

export async function launchBrowser(options: LaunchOptions = {}): Promise<TestBrowser> {
  const executablePath = chromiumPath();
  if (executablePath === undefined) throw new Error(BROWSER_SKIP_REASON);
  const profileDir = await mkdtemp(join(tmpdir(), 'agent-catalog-chromium-'));
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath,
    headless: true,
    args: LAUNCH_ARGS,
    viewport: options.viewport ?? { width: 1280, height: 900 },
    javaScriptEnabled: options.javaScriptEnabled ?? true,
    bypassCSP: options.bypassCSP ?? false,
  });
  const blockedRequests: string[] = [];
  if (options.loopbackOnly !== false) {
    await context.route('**/*', async (route) => {
      const url = route.request().url();
      if (isLoopback(url)) return route.continue();
      blockedRequests.push(url);
      return route.abort('blockedbyclient');
    });
  }
  return {
    context,
    blockedRequests,
    async close() {
      await context.close();
      await rm(profileDir, { recursive: true, force: true });
    },
  };
}
