/**
 * The spec's Product.packaging is "free text describing count, size in fl oz and mL, and
 * bottle type". A merchant may write that text (we check it names both units) or give
 * the parts, from which one consistent phrasing is built, e.g. "6 x 12 fl oz (355 mL)
 * glass bottles". A size whose two units disagree by more than 5% is refused, because an
 * agent quoting the wrong volume is worse than one quoting none.
 */

/** 1 US fluid ounce in millilitres. */
const ML_PER_FL_OZ = 29.5735;
const UNIT_TOLERANCE = 0.05;

export interface PackagingFields {
  count: number;
  fl_oz: number;
  ml: number;
  bottle: string;
}

export type PackagingResult = { ok: true; text: string } | { ok: false; problem: string };

export function buildPackagingText(fields: PackagingFields): PackagingResult {
  const expectedMl = fields.fl_oz * ML_PER_FL_OZ;
  if (Math.abs(fields.ml - expectedMl) > expectedMl * UNIT_TOLERANCE) {
    return {
      ok: false,
      problem: `${fields.fl_oz} fl oz is about ${Math.round(expectedMl)} mL, not ${fields.ml} mL`,
    };
  }
  const bottle = fields.count === 1 ? fields.bottle : pluralise(fields.bottle);
  return {
    ok: true,
    text: `${fields.count} x ${formatNumber(fields.fl_oz)} fl oz (${formatNumber(fields.ml)} mL) ${bottle}`,
  };
}

/** Returns a problem description, or undefined when the text states both units. */
export function checkPackagingText(text: string): string | undefined {
  const hasFlOz = /\d\s*(?:fl\.?\s*oz|fluid\s+ounces?)\b/i.test(text);
  const hasMl = /\d\s*(?:ml|millilit(?:re|er)s?)\b/i.test(text);
  if (hasFlOz && hasMl) return undefined;
  const missing = [hasFlOz ? undefined : 'fl oz', hasMl ? undefined : 'mL'].filter(Boolean).join(' and ');
  return `must state the size in both fl oz and mL (missing ${missing}), or use the fields count, fl_oz, ml and bottle`;
}

function formatNumber(value: number): string {
  return Number.isInteger(value) ? String(value) : String(Number(value.toFixed(2)));
}

function pluralise(noun: string): string {
  if (/s$/i.test(noun)) return noun;
  return /(?:x|ch|sh)$/i.test(noun) ? `${noun}es` : `${noun}s`;
}
