/**
 * The bytes of answers that depend on nothing but their request's URL, kept for the next
 * request of the same URL: the supplier catalog's pages (the catalog is made from the seed
 * when the sandbox starts and never changes; the page rules are the sandbox's options). A
 * page's JSON was built and UTF-8 encoded on every request, and a string body is encoded
 * once more by the socket's write: ~60% of the sandbox's CPU per request in `npm run bench`
 * (sandbox req/s, bench/README.md). Bounded: the oldest URL goes first.
 */
export class PageCache {
  private readonly pages = new Map<string, Uint8Array<ArrayBuffer>>();

  constructor(private readonly capacity = 256) {}

  /** The bytes kept for `url`, else those `render` makes (then kept). */
  bytes(url: string, render: () => string): Uint8Array<ArrayBuffer> {
    let page = this.pages.get(url);
    if (page === undefined) {
      page = Buffer.from(render());
      if (this.pages.size >= this.capacity) this.pages.delete(this.pages.keys().next().value!);
      this.pages.set(url, page);
    }
    return page;
  }
}
