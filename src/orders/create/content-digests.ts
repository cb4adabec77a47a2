import { hash } from 'node:crypto';

const HEX = /^[0-9a-f]*$/;

/**
 * Digests of contents (a recipient row, a shipping order: order-content.ts's keys), kept
 * compact because a run may have 100,000 of each: 64 bits of a SHA-256 per key, in a typed
 * array, so memory holds 8 bytes a row instead of a string and its object. Two different
 * contents share a digest with a probability of about n^2 / 2^65 (10^-9 for 100,000 rows
 * against 100,000 shipping orders).
 */
export class Digests {
  private words = new Uint32Array(2 * 256);
  private count = 0;

  get length(): number {
    return this.count;
  }

  push(key: string): void {
    // One call, no Hash object: a list has a key per row.
    const digest = hash('sha256', key, 'buffer');
    this.pushWords(digest.readUInt32LE(0), digest.readUInt32LE(4));
  }

  /** Appends every digest of `other`. */
  append(other: Digests): void {
    for (let i = 0; i < other.count; i++) this.pushWords(other.words[2 * i]!, other.words[2 * i + 1]!);
  }

  /** Digest `i` as 16 hex digits (how the journal keeps a run's shipping orders). */
  hex(i: number): string {
    return this.words[2 * i]!.toString(16).padStart(8, '0') + this.words[2 * i + 1]!.toString(16).padStart(8, '0');
  }

  /** Every digest as `hex` writes it, one after another (how the journal keeps an order's shipping orders). */
  hexAll(): string {
    let text = '';
    for (let i = 0; i < this.count; i++) text += this.hex(i);
    return text;
  }

  /** Whether `text` is one digest as `hex` writes it. */
  static isHex(text: unknown): text is string {
    return typeof text === 'string' && text.length === 16 && HEX.test(text);
  }

  /** Digests written by `hex`, one after another; undefined when `text` is not such a sequence. */
  static fromHex(text: string): Digests | undefined {
    if (text.length % 16 !== 0 || !HEX.test(text)) return undefined;
    const digests = new Digests();
    for (let at = 0; at < text.length; at += 16) digests.pushWords(Number.parseInt(text.slice(at, at + 8), 16), Number.parseInt(text.slice(at + 8, at + 16), 16));
    return digests;
  }

  /** Whether digest `i` here is digest `j` of `other`. */
  same(i: number, other: Digests, j: number): boolean {
    return this.words[2 * i] === other.words[2 * j] && this.words[2 * i + 1] === other.words[2 * j + 1];
  }

  /** A hash of digest `i` in [0, size) for a power-of-two size. */
  bucket(i: number, size: number): number {
    return this.words[2 * i]! & (size - 1);
  }

  private pushWords(a: number, b: number): void {
    if (2 * (this.count + 1) > this.words.length) {
      const grown = new Uint32Array(this.words.length * 2);
      grown.set(this.words);
      this.words = grown;
    }
    this.words[2 * this.count] = a;
    this.words[2 * this.count + 1] = b;
    this.count++;
  }
}

/**
 * Matches each digest of `wanted`, in order, to an equal digest of `available` not matched
 * before, the lowest index first: per wanted digest, the index matched, or -1 when none is
 * left (a multiset: a content listed twice needs two). An open-addressing table over typed
 * arrays, with a chain through the equal digests of `available`.
 */
export function matchDigests(wanted: Digests, available: Digests): Int32Array {
  let size = 1;
  while (size < 2 * available.length + 2) size *= 2;
  // slot -> the lowest index of its digest (-1: empty), and the next index to hand out (-1: all taken)
  const head = new Int32Array(size).fill(-1);
  const cursor = new Int32Array(size).fill(-1);
  const next = new Int32Array(available.length).fill(-1);
  const slotOf = (digests: Digests, i: number): number => {
    let slot = digests.bucket(i, size);
    while (head[slot] !== -1 && !available.same(head[slot]!, digests, i)) slot = (slot + 1) & (size - 1);
    return slot;
  };
  for (let i = available.length - 1; i >= 0; i--) {
    const slot = slotOf(available, i);
    if (head[slot] !== -1) next[i] = head[slot]!;
    head[slot] = i;
    cursor[slot] = i;
  }
  const matched = new Int32Array(wanted.length).fill(-1);
  for (let w = 0; w < wanted.length; w++) {
    const slot = slotOf(wanted, w);
    const found = head[slot] === -1 ? -1 : cursor[slot]!;
    if (found === -1) continue;
    matched[w] = found;
    cursor[slot] = next[found]!;
  }
  return matched;
}
