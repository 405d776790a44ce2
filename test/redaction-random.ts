/**
 * Deterministic "random" strings for the redaction corpus: fake secrets that look generated
 * without being pasted from anywhere. Same seed, same corpus, on every machine.
 */

export const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const LOWER_ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';
export const UPPER_ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
export const HEX = '0123456789abcdef';
export const URL_SAFE = `${ALNUM}_-`;
export const BASE64 = `${ALNUM}+/`;
export const DIGITS = '0123456789';

/** mulberry32: small, fast, and good enough to make strings look random. */
export class Seeded {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(below: number): number {
    return Math.floor(this.next() * below);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }

  /**
   * `length` characters of `alphabet`, with at least one digit and one letter when the alphabet
   * has both (a real generator's output almost always does at these lengths).
   */
  chars(alphabet: string, length: number): string {
    for (;;) {
      let out = '';
      for (let i = 0; i < length; i++) out += alphabet[this.int(alphabet.length)];
      const wantsDigit = /\d/.test(alphabet) && /[A-Za-z]/.test(alphabet) && length >= 8;
      if (!wantsDigit || (/\d/.test(out) && /[A-Za-z]/.test(out))) return out;
    }
  }

  /** A password a person would choose: a word, digits, a symbol. */
  password(): string {
    const word = this.pick(['Sunset', 'Marble', 'Harbor', 'Copper', 'Falcon', 'Juniper', 'Quartz', 'Velvet', 'Orchid', 'Tundra', 'Cobalt', 'Ember']);
    return `${word}${this.chars(DIGITS, 2 + this.int(3))}${this.pick(['!', '#', '%', '*', '?', '@', '^', '', 'x', 'Q'])}${this.chars(ALNUM, 3)}`;
  }
}
