// Bounds on a TtlCache: entries, and with `weigh` the bytes they hold (a
// value heavier than `maxBytes` alone is answered but not kept).
export interface TtlCacheBounds<V> {
  maxEntries: number;
  maxBytes?: number;
  weigh?: (value: V) => number;
}

// A bounded map whose entries live at most their time to live, dropping the
// least recently used beyond its bounds (entries, and bytes when it weighs
// its values: expired entries are dropped when read or when they are the
// least recently used, so only a bound in bytes bounds what large values
// hold). Invalidations bump a generation: a value loaded while one happened
// is answered but not kept, as it may predate the change that was announced.
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number; bytes: number }>();
  private generation = 0;
  private bytes = 0;
  // The most recently used key: reading it again needs no reordering, which
  // spares the hottest entry (one token, one form under load) a Map delete and
  // insert on every hit.
  private newest: string | undefined;

  private readonly maxEntries: number;
  private readonly maxBytes: number;
  private readonly weigh: (value: V) => number;

  constructor(
    private readonly ttlMs: number,
    bounds: number | TtlCacheBounds<V>,
    private readonly now: () => number = Date.now,
  ) {
    const { maxEntries, maxBytes, weigh } = typeof bounds === 'number' ? { maxEntries: bounds } : bounds;
    this.maxEntries = maxEntries;
    this.maxBytes = maxBytes ?? Number.POSITIVE_INFINITY;
    this.weigh = weigh ?? (() => 0);
  }

  get size(): number {
    return this.entries.size;
  }

  /** The bytes its entries weigh (0 when it does not weigh them). */
  get heldBytes(): number {
    return this.bytes;
  }

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.remove(key);
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
      if (until > now) this.keep(key, value, until);
    }
    return value;
  }

  /** Keeps `value` for the time to live. */
  set(key: string, value: V): void {
    if (this.ttlMs <= 0) return;
    this.keep(key, value, this.now() + this.ttlMs);
  }

  delete(key: string): void {
    this.generation += 1;
    this.remove(key);
  }

  deleteWhere(test: (value: V) => boolean): void {
    this.generation += 1;
    for (const [key, entry] of this.entries) if (test(entry.value)) this.remove(key);
  }

  clear(): void {
    this.generation += 1;
    this.entries.clear();
    this.bytes = 0;
  }

  // The newest entry; then the least recently used go while a bound is passed.
  private keep(key: string, value: V, expiresAt: number): void {
    this.remove(key);
    const bytes = this.weigh(value);
    if (bytes > this.maxBytes) return;
    this.entries.set(key, { value, expiresAt, bytes });
    this.bytes += bytes;
    this.newest = key;
    while (this.entries.size > this.maxEntries || this.bytes > this.maxBytes) {
      this.remove(this.entries.keys().next().value!);
    }
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
    if (key === this.newest) this.newest = undefined;
  }
}
