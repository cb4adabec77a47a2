/**
 * The bytes of answers that depend on nothing but their request's URL, kept for the next
 * request of the same URL: the supplier catalog's pages (the catalog is made from the seed
 * when the sandbox starts and never changes; the page rules are the sandbox's options). A
 * page's JSON was built and UTF-8 encoded on every request, and a string body is encoded
 * once more by the socket's write: ~60% of the sandbox's CPU per request in `npm run bench`
 * (sandbox req/s, bench/README.md). Bounded in bytes: the oldest URL goes first.
 */
export class PageCache {
  private readonly pages = new Map<string, Uint8Array<ArrayBuffer>>();
  private size = 0;

  /** `budget`: the bytes kept at most (8 MiB: a few hundred pages of 100 products). */
  constructor(private readonly budget = 8 * 1024 * 1024) {}

  /** The bytes kept for `url`, else those `render` makes (then kept). */
  bytes(url: string, render: () => string): Uint8Array<ArrayBuffer> {
    const kept = this.pages.get(url);
    if (kept !== undefined) return kept;
    const page = Buffer.from(render());
    if (page.byteLength > this.budget) return page;
    for (const [oldest, bytes] of this.pages) {
      if (this.size + page.byteLength <= this.budget) break;
      this.pages.delete(oldest);
      this.size -= bytes.byteLength;
    }
    this.pages.set(url, page);
    this.size += page.byteLength;
    return page;
  }
}
