/**
 * What an instance remembers across requests (hints, caches, refusals), at most `max` entries: a new key past that
 * drops the entry set longest ago, so a long-lived instance never grows without bound. Setting a key again makes it
 * the newest. Per instance only: never the source of truth, only a way to skip or shorten work.
 */
export class BoundedMap<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(readonly max: number) {
    if (!(Number.isInteger(max) && max > 0)) throw new Error(`BoundedMap: max must be a positive integer, not ${max}`);
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: K): V | undefined {
    return this.entries.get(key);
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  set(key: K, value: V): this {
    this.entries.delete(key);
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value as K);
    this.entries.set(key, value);
    return this;
  }

  delete(key: K): boolean {
    return this.entries.delete(key);
  }
}
