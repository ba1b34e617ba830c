/**
 * A cache of loaded values bounded by their bytes, least recently used out first: the
 * search index's partitions stay in an isolate only while they fit its budget. A value
 * still loading counts nothing; a failed load is forgotten, so the next use tries again.
 */
export class ByteLru<T> {
  private readonly entries = new Map<string, { value: Promise<T>; bytes: number }>();
  private total = 0;

  constructor(private readonly budget: number) {}

  /** Bytes held by loaded values. */
  get bytes(): number {
    return this.total;
  }

  get(key: string, load: () => Promise<{ value: T; bytes: number }>): Promise<T> {
    const kept = this.entries.get(key);
    if (kept) {
      this.entries.delete(key);
      this.entries.set(key, kept);
      return kept.value;
    }
    const entry = { value: Promise.resolve() as Promise<unknown> as Promise<T>, bytes: 0 };
    entry.value = load().then(
      ({ value, bytes }) => {
        if (this.entries.get(key) === entry) {
          entry.bytes = bytes;
          this.total += bytes;
          this.evict(key);
        }
        return value;
      },
      (error: unknown) => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
        throw error;
      },
    );
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Drops the least recently used values, never `keep`, until the total fits the budget. */
  private evict(keep: string): void {
    for (const [key, entry] of this.entries) {
      if (this.total <= this.budget) return;
      if (key === keep) continue;
      this.entries.delete(key);
      this.total -= entry.bytes;
    }
  }
}
