/**
 * One string object for each distinct value of a field that repeats across a catalog's
 * products (a currency, an availability, the shipping sentence): the gate keeps such a
 * field for every product and variant, and a catalog read back from disk makes each
 * record's strings afresh, so without this each product would hold its own copy.
 */
export class InternedStrings {
  readonly #known = new Map<string, string>();

  of(value: string): string {
    const known = this.#known.get(value);
    if (known !== undefined) return known;
    this.#known.set(value, value);
    return value;
  }
}
