/**
 * The values a catalog repeats across its products and variants (a currency, an
 * availability, a shipping sentence, a directory), each kept once and named by a number:
 * the gate's references hold that number in a typed array where each product would
 * otherwise point at a string of its own.
 */

/** Distinct values numbered in the order met (0 kept for "none"). */
export class ValueTable {
  readonly values: string[] = [''];
  readonly #numbers = new Map<string, number>();

  numberOf(value: string | undefined): number {
    if (value === undefined) return 0;
    let number = this.#numbers.get(value);
    if (number === undefined) {
      number = this.values.length;
      this.values.push(value);
      this.#numbers.set(value, number);
    }
    return number;
  }
}
