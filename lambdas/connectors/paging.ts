// A guard for cursor-paged listings: a service that hands back a cursor it already gave (a
// listing that would page forever) fails the listing with that reason instead of looping.
export class CursorGuard {
  private readonly seen = new Set<string>();
  constructor(private readonly what: string) {}

  /** Records the cursor of the next page; throws when the service gave it before. */
  next(cursor: string): string {
    if (this.seen.has(cursor)) throw new Error(`${this.what}: the service returned a page cursor it had already returned (the listing would never end)`);
    this.seen.add(cursor);
    return cursor;
  }
}
