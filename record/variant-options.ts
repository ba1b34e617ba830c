/**
 * Which of a variant's options is its size or its colour, for the feeds that have a field
 * for each (Google's g:size and g:color, OpenAI's size and color). Stores name options
 * freely ("Size", "Shoe size", "Colour", "Color / Finish"), so a name matches when one of
 * its words is a known name for that kind, compared case-insensitively.
 */
import type { ProductVariant } from './product-record.js';

export type OptionKind = 'size' | 'color';

const NAMES: Readonly<Record<OptionKind, readonly string[]>> = {
  size: ['size', 'sizes', 'talla', 'taille', 'größe', 'groesse'],
  color: ['color', 'colour', 'colors', 'colours', 'farbe', 'couleur'],
};

export function isOptionOfKind(name: string, kind: OptionKind): boolean {
  const words = name.toLowerCase().split(/[^\p{L}\p{N}]+/u);
  return words.some((word) => NAMES[kind].includes(word));
}

/** The variant's value of the first option of that kind, when it has one. */
export function optionValueOf(variant: ProductVariant, kind: OptionKind): string | undefined {
  return variant.options.find((option) => isOptionOfKind(option.name, kind))?.value;
}
