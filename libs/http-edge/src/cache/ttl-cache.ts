// A bounded map whose entries live at most their time to live, dropping the
// least recently used beyond `maxEntries`. Invalidations bump a generation: a
// value loaded while one happened is answered but not kept, as it may predate
// the change that was announced.
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();
  private generation = 0;
  // The most recently used key: reading it again needs no reordering, which
  // spares the hottest entry (one token, one form under load) a Map delete and
  // insert on every hit.
  private newest: string | undefined;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    // Most recently used last: Map keeps insertion order.
    if (key !== this.newest) {
      this.entries.delete(key);
      this.entries.set(key, entry);
      this.newest = key;
    }
    return entry.value;
  }

  /**
   * The cached value, or `load()`'s, kept for the time to live (or until
   * `expiresAt(value)`, if sooner). A failed load is not kept.
   */
  async getOrLoad(key: string, load: () => Promise<V>, expiresAt?: (value: V) => number | null): Promise<V> {
    const cached = this.get(key);
    if (cached !== undefined) return cached;
    const generation = this.generation;
    const value = await load();
    if (generation === this.generation && this.ttlMs > 0) {
      const now = this.now();
      const until = Math.min(now + this.ttlMs, expiresAt?.(value) ?? Number.POSITIVE_INFINITY);
      if (until > now) {
        this.entries.delete(key);
        this.entries.set(key, { value, expiresAt: until });
        this.newest = key;
        if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
      }
    }
    return value;
  }

  /** Keeps `value` for the time to live. */
  set(key: string, value: V): void {
    if (this.ttlMs <= 0) return;
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: this.now() + this.ttlMs });
    this.newest = key;
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  delete(key: string): void {
    this.generation += 1;
    this.entries.delete(key);
  }

  deleteWhere(test: (value: V) => boolean): void {
    this.generation += 1;
    for (const [key, entry] of this.entries) if (test(entry.value)) this.entries.delete(key);
  }

  clear(): void {
    this.generation += 1;
    this.entries.clear();
  }
}
