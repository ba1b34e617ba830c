/**
 * The search index builder's vocabulary: each distinct term numbered once, in the order
 * first seen, kept as typed arrays rather than a `Map` of strings (issue 29: a catalog of
 * 1,000,000 products carries about a million terms, and a `Map` entry with its string was
 * about 70 bytes each). A term's code units sit end to end in one growing array with its
 * start and hash beside it, and an open-addressing table of term numbers (at most half
 * full) finds a term by its hash: about 30 bytes a term of six letters.
 */
import { fnv1a } from './fnv1a.js';
import { GrowableArray } from './growable-array.js';

/** Code units per String.fromCharCode call: well below every engine's argument limit. */
const TEXT_CHUNK = 0x2000;

export class TermTable {
  /** Every term's code units, end to end. */
  private readonly text = new GrowableArray((length) => new Uint16Array(length));
  /** Per term, where it starts in `text` (it ends where the next starts, or at the end). */
  private readonly starts = new GrowableArray((length) => new Uint32Array(length));
  private readonly hashes = new GrowableArray((length) => new Uint32Array(length));
  /** Slots of term number + 1 (0 for an empty slot), a power of two long. */
  private slots = new Uint32Array(1024);

  /** How many distinct terms there are. */
  get length(): number {
    return this.starts.length;
  }

  /** The bytes the table holds, spare room included. */
  get byteLength(): number {
    return this.text.byteLength + this.starts.byteLength + this.hashes.byteLength + this.slots.byteLength;
  }

  /** The term's number, giving it the next one when it is new. */
  idOf(term: string): number {
    const hash = fnv1a(term);
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const found = this.slots[slot] as number;
      if (found === 0) return this.add(term, hash, slot);
      if (this.hashes.at(found - 1) === hash && this.equals(found - 1, term)) return found - 1;
    }
  }

  /** Term `id` as a string (a fresh one: nothing else's text kept alive). */
  termAt(id: number): string {
    const start = this.starts.at(id);
    const end = id + 1 < this.length ? this.starts.at(id + 1) : this.text.length;
    const parts: string[] = [];
    // A chunk at a time: a word can be longer than a call may take arguments.
    for (let at = start; at < end; at += TEXT_CHUNK)
      parts.push(String.fromCharCode(...this.text.view(at, Math.min(end, at + TEXT_CHUNK))));
    return parts.join('');
  }

  /** How terms `a` and `b` compare by code unit, as `<` compares their strings. */
  compare(a: number, b: number): number {
    const [aStart, aEnd] = this.span(a);
    const [bStart, bEnd] = this.span(b);
    const shorter = Math.min(aEnd - aStart, bEnd - bStart);
    for (let at = 0; at < shorter; at += 1) {
      const difference = this.text.at(aStart + at) - this.text.at(bStart + at);
      if (difference !== 0) return difference;
    }
    return aEnd - aStart - (bEnd - bStart);
  }

  private span(id: number): [start: number, end: number] {
    return [this.starts.at(id), id + 1 < this.length ? this.starts.at(id + 1) : this.text.length];
  }

  private equals(id: number, term: string): boolean {
    const [start, end] = this.span(id);
    if (end - start !== term.length) return false;
    for (let at = 0; at < term.length; at += 1) {
      if (this.text.at(start + at) !== term.charCodeAt(at)) return false;
    }
    return true;
  }

  private add(term: string, hash: number, slot: number): number {
    const id = this.length;
    this.starts.push(this.text.length);
    this.hashes.push(hash);
    for (let at = 0; at < term.length; at += 1) this.text.push(term.charCodeAt(at));
    this.slots[slot] = id + 1;
    if (this.length * 2 > this.slots.length) this.rehash();
    return id;
  }

  /** Twice the slots, each term placed again by its kept hash. */
  private rehash(): void {
    this.slots = new Uint32Array(this.slots.length * 2);
    const mask = this.slots.length - 1;
    for (let id = 0; id < this.length; id += 1) {
      let slot = this.hashes.at(id) & mask;
      while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
      this.slots[slot] = id + 1;
    }
  }
}
