/** A document's elements made of bytes a test already holds, named by `slugs` (default `p<index>`). */
import type { ProductElements } from '../../generator/plan.js';

export function bufferElements(
  buffers: readonly Buffer[],
  options: { slugs?: readonly string[]; keys?: readonly string[] } = {},
): ProductElements {
  const at = <T>(items: readonly T[], index: number): T => {
    const item = items[index];
    if (item === undefined) throw new TypeError(`bufferElements: no element ${index} of ${items.length}`);
    return item;
  };
  return {
    length: buffers.length,
    slug: (index) => (options.slugs === undefined ? `p${index}` : at(options.slugs, index)),
    key: (index) => (options.keys === undefined ? undefined : at(options.keys, index)),
    read: (index) => at(buffers, index),
  };
}
