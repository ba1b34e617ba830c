/**
 * get_product's detail view (UCP 2026-04-08, catalog lookup, "Option Selection"): the
 * effective selections, the featured variant first, and availability signals on every
 * option value. A variant id fixes the selection ("the variant ID fully determines the
 * selection state"); a product id with `selected` narrows the variants to the selection,
 * relaxed from the end of `preferences` when no variant matches all of it; without either,
 * the featured variant's options are the selection and every variant is listed after it,
 * so one call shows every purchasable choice.
 */
import type { UcpProduct, UcpSelectedOption, UcpVariant } from './ucp-types.js';

export interface DetailRequest {
  variantId?: string;
  selected?: readonly { name: string; label: string }[];
  preferences?: readonly string[];
}

type DetailOption = { name: string; values: { label: string; available: boolean; exists: boolean }[] };

export type DetailProduct = Omit<UcpProduct, 'options'> & {
  selected?: UcpSelectedOption[];
  options?: DetailOption[];
};

function matches(variant: UcpVariant, selections: readonly UcpSelectedOption[]): boolean {
  return selections.every((selection) =>
    (variant.options ?? []).some(
      (option) => option.name === selection.name && option.label === selection.label,
    ),
  );
}

/** The request's selections, ordered by priority, shortened from the end until a variant matches. */
function relax(product: UcpProduct, request: DetailRequest): UcpSelectedOption[] {
  const names = new Set((product.options ?? []).map((option) => option.name));
  const wanted = (request.selected ?? []).filter((selection) => names.has(selection.name));
  const rank = (name: string) => {
    const position = request.preferences?.indexOf(name) ?? -1;
    return position === -1 ? Number.MAX_SAFE_INTEGER : position;
  };
  const ordered = wanted
    .map((selection, index) => ({ selection: { name: selection.name, label: selection.label }, index }))
    .sort((a, b) => rank(a.selection.name) - rank(b.selection.name) || a.index - b.index)
    .map((entry) => entry.selection);
  while (ordered.length > 0 && !product.variants.some((variant) => matches(variant, ordered))) ordered.pop();
  return ordered;
}

export function detailProduct(product: UcpProduct, request: DetailRequest): DetailProduct {
  const named = product.variants.find((variant) => variant.id === request.variantId);
  const narrowing = named === undefined && (request.selected?.length ?? 0) > 0;
  const selected = named ? (named.options ?? []) : narrowing ? relax(product, request) : undefined;
  const candidates = narrowing
    ? product.variants.filter((variant) => matches(variant, selected ?? []))
    : product.variants;
  // The record's first variant is the featured one; a narrowed choice prefers one in stock.
  const featured =
    named ??
    (narrowing ? candidates.find((variant) => variant.availability.available) : undefined) ??
    candidates[0];
  const effective = selected ?? featured?.options ?? [];
  const variants = featured
    ? [featured, ...candidates.filter((variant) => variant !== featured)]
    : candidates;
  const { options, ...rest } = product;
  return {
    ...rest,
    // "The response MUST include product.selected when the product has configurable options."
    ...(options && options.length > 0 ? { selected: effective } : {}),
    ...(options
      ? { options: options.map((option) => withSignals(option, product.variants, effective)) }
      : {}),
    variants,
  };
}

/** Each value's `exists`/`available` given the other options' effective selections. */
function withSignals(
  option: NonNullable<UcpProduct['options']>[number],
  variants: readonly UcpVariant[],
  effective: readonly UcpSelectedOption[],
): DetailOption {
  const others = effective.filter((selection) => selection.name !== option.name);
  return {
    name: option.name,
    values: option.values.map((value) => {
      const fitting = variants.filter((variant) =>
        matches(variant, [...others, { name: option.name, label: value.label }]),
      );
      return {
        label: value.label,
        available: fitting.some((variant) => variant.availability.available),
        exists: fitting.length > 0,
      };
    }),
  };
}
