// Renders kept by their text, most recently used last, the oldest dropped past `size`: a
// finished message's Markdown is parsed and checked once, then each render (reopening the
// conversation, another one showing the same text, scrolling back to it) takes the kept result.
// Keyed by the text itself (with the options), not by message id: a text that changes (a message
// still streaming) is another key, so nothing stale is ever shown.

export class RenderCache<T> {
  readonly #kept = new Map<string, T>();

  constructor(readonly size: number) {}

  /** The kept render of `key`, else `make()`, kept unless `keep` is false (a growing text). */
  get(key: string, make: () => T, keep = true): T {
    const hit = this.#kept.get(key);
    if (hit !== undefined) {
      this.#kept.delete(key); // most recently used last
      this.#kept.set(key, hit);
      return hit;
    }
    const made = make();
    if (!keep) return made;
    this.#kept.set(key, made);
    if (this.#kept.size > this.size) {
      const oldest = this.#kept.keys().next().value;
      if (oldest !== undefined) this.#kept.delete(oldest);
    }
    return made;
  }

  has(key: string): boolean {
    return this.#kept.has(key);
  }

  get count(): number {
    return this.#kept.size;
  }
}
