/**
 * The receiver's state for one process, isolate or warm instance: the settings read from
 * the host's environment, the delivery ids seen lately, and the scheduler that coalesces
 * triggers. A shell builds it once (the environment does not change under a running
 * deployment) and hands it to the core with each request, with its host's `waitUntil`.
 */
import { MAX_DELIVERY_AGE_MS } from './deliveries.js';
import { type EnvReader, type HookSettings, hasReceiver, readHookSettings } from './hook-settings.js';
import { sendRebuildTrigger, type TriggerOptions, type TriggerOutcome } from './rebuild-trigger.js';
import { createSeenDeliveries, type SeenDeliveries } from './seen-deliveries.js';
import { createTriggerScheduler, type TriggerPolicy, type TriggerScheduler } from './trigger-scheduler.js';

export interface HookRuntime {
  settings: HookSettings;
  seen: SeenDeliveries;
  /** Undefined when the rebuild URL is unset or unusable (the receiver then answers 503). */
  scheduler: TriggerScheduler | undefined;
  now: () => number;
}

export interface HookRuntimeOptions {
  policy: TriggerPolicy;
  trigger?: TriggerOptions;
  now?: () => number;
  /** Told each trigger's outcome (never the URL or a token); `serve` prints it. */
  report?: (outcome: TriggerOutcome) => void;
}

/** The runtime for an environment, or undefined when no receiver is on (no secret set). */
export function createHookRuntime(env: EnvReader, options: HookRuntimeOptions): HookRuntime | undefined {
  const settings = readHookSettings(env);
  if (!hasReceiver(settings)) return undefined;
  const { rebuild } = settings;
  const now = options.now ?? Date.now;
  const scheduler = rebuild.ok
    ? createTriggerScheduler(
        async () => {
          const outcome = await sendRebuildTrigger(rebuild, options.trigger);
          options.report?.(outcome);
        },
        options.policy,
        now,
      )
    : undefined;
  return { settings, seen: createSeenDeliveries(MAX_DELIVERY_AGE_MS), scheduler, now };
}
