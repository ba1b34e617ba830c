/**
 * The one door from the runtime shells to the live handler's pure core: every shell
 * imports `handleLiveRequest` and builds its `LiveContext` here, so a change in the core's
 * interface touches this file and no shell. The deployment's settings are read from the
 * bundle's own `_live/manifest.json` through the shell's asset reader; a bundle without one
 * has no live surface, and the shell serves its static files.
 */
import { handleLiveRequest } from '../handle-live-request.js';
import {
  type AssetBytesReader,
  type AssetFiles,
  type AssetOpener,
  type AssetReader,
  type LiveContext,
  readLiveSettings,
} from '../live-context.js';

export { DEFAULT_BODY_LIMITS } from '../handle-live-request.js';
export { createHookRuntime, type HookRuntime } from '../hooks/hook-runtime.js';
export type { EnvReader } from '../hooks/hook-settings.js';
export { PROCESS_POLICY, SERVERLESS_POLICY, type TriggerPolicy } from '../hooks/trigger-scheduler.js';
export { HOOK_BODY_LIMITS, isHookPathname } from '../hooks/webhook-route.js';
export type { AssetBytesReader, AssetFiles, AssetOpener, AssetReader, LiveContext };
export { handleLiveRequest };

/** The context for a bundle, or undefined when it has no live surface. */
export async function createLiveContext(files: AssetFiles): Promise<LiveContext | undefined> {
  const settings = await readLiveSettings(files.readAsset);
  return settings === undefined ? undefined : { settings, ...files };
}

/**
 * One context per isolate or warm instance (a deployed bundle never changes under it), so
 * whatever the core caches outlives a request. A failed read is not remembered: the next
 * request tries again.
 */
export function createContextCache(): (files: AssetFiles) => Promise<LiveContext | undefined> {
  let pending: Promise<LiveContext | undefined> | undefined;
  return (files) => {
    pending ??= createLiveContext(files).catch((error: unknown) => {
      pending = undefined;
      throw error;
    });
    return pending;
  };
}
