/**
 * "Did you mean `content_dir`?" for a mistyped key of `catalog.config.json`: the config
 * schema refuses unknown keys (a typo must not become a silent default), and this finds
 * the nearest key the schema knows at the same place, nested sections included, by edit
 * distance (issue 24). Pure; only called when a config is already being refused.
 */
import { z } from 'zod';
import { nearestName } from '../cli/nearest-name.js';

/** The object schema under optional and default wrappers, if there is one. */
function objectOf(schema: z.ZodType): z.ZodObject | undefined {
  let current: unknown = schema;
  for (let depth = 0; depth < 5; depth++) {
    if (current instanceof z.ZodObject) return current;
    if (
      current instanceof z.ZodOptional ||
      current instanceof z.ZodDefault ||
      current instanceof z.ZodNullable
    ) {
      current = current.unwrap();
    } else return undefined;
  }
  return undefined;
}

/** The keys the schema allows at `path` (e.g. `['upstream']`); empty when `path` is not an object. */
export function knownKeysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let current = objectOf(schema);
  for (const segment of path) {
    const next: unknown = current?.shape[String(segment)];
    current = next instanceof z.ZodType ? objectOf(next) : undefined;
  }
  return current ? Object.keys(current.shape) : [];
}

/** The known key nearest to `key` at `path`, if one is near enough to be the likely intent. */
export function suggestKey(schema: z.ZodType, path: readonly PropertyKey[], key: string): string | undefined {
  return nearestName(key, knownKeysAt(schema, path));
}
