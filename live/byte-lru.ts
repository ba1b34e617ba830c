/**
 * A cache of loaded values bounded by their bytes, least recently used out first: the
 * search index's partitions stay in an isolate only while they fit its budget. A value
 * still loading counts nothing; a failed load is forgotten, so the next use tries again.
 */
export class ByteLru<T> {
  private readonly entries = new Map<string, { value: Promise<T>; bytes: number; loaded: boolean }>();
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
    const entry = { value: Promise.resolve() as Promise<unknown> as Promise<T>, bytes: 0, loaded: false };
    entry.value = load().then(
      ({ value, bytes }) => {
        if (this.entries.get(key) === entry) {
          entry.bytes = bytes;
          entry.loaded = true;
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

  /**
   * Counts `bytes` more for a loaded value that grew after it was loaded (a term partition
   * decodes a term's postings when first asked for), dropping others if the total passes
   * the budget. Nothing happens for a value no longer kept or still loading.
   */
  grow(key: string, bytes: number): void {
    const kept = this.entries.get(key);
    if (!kept?.loaded) return;
    kept.bytes += bytes;
    this.total += bytes;
    this.evict(key);
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
