/**
 * Seeded random streams. A stream is named by (seed, key) so that the draws of one cell depend
 * only on the seed and that cell's key (docs/architecture.md): adding a cell never changes another's draws.
 *
 * Generator: sfc32 (Doherty's Small Fast Counting generator, PractRand-clean), seeded through
 * the cyrb128 string hash; uniforms carry 53 random bits.
 */
export interface RandomSource {
  /** A uniform double in [0, 1) with 53 random bits. */
  next(): number;
  /** A uniform integer in [0, 2^32). */
  nextUint32(): number;
  /** out.length successive nextUint32() values, at once (the same words, in the same order). */
  fillUint32(out: Uint32Array): void;
}

/** cyrb128: four 32-bit words of hash from a string (bryc, public domain). */
export function hash128(str: string): [number, number, number, number] {
  let h1 = 1779033703, h2 = 3144134277, h3 = 1013904242, h4 = 2773480762;
  for (let i = 0; i < str.length; i++) {
    const k = str.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

class Sfc32 implements RandomSource {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  constructor(seed: [number, number, number, number]) {
    [this.a, this.b, this.c, this.d] = seed;
    for (let i = 0; i < 15; i++) this.u32(); // warm up away from the seed
  }
  u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }
  nextUint32(): number {
    return this.u32();
  }
  /**
   * u32() out.length times on local copies of the state: the same words, without a call per word.
   * The copies are taken as int32 (`| 0`, the same bits mod 2^32, which is all the steps read), so
   * the loop runs on 32-bit integers rather than on numbers of either kind.
   */
  fillUint32(out: Uint32Array): void {
    let a = this.a | 0, b = this.b | 0, c = this.c | 0, d = this.d | 0;
    for (let i = 0; i < out.length; i++) {
      const t = (((a + b) | 0) + d) | 0;
      d = (d + 1) | 0;
      a = b ^ (b >>> 9);
      b = (c + (c << 3)) | 0;
      c = (c << 21) | (c >>> 11);
      c = (c + t) | 0;
      out[i] = t >>> 0;
    }
    this.a = a; this.b = b; this.c = c; this.d = d;
  }
  next(): number {
    const hi = this.u32() >>> 5; // 27 bits
    const lo = this.u32() >>> 6; // 26 bits
    return (hi * 67108864 + lo) / 9007199254740992;
  }
}

/** The stream for (seed, key). Same arguments, same stream, on every machine. */
export function streamFor(seed: number, key: string): RandomSource {
  return new Sfc32(hash128(`${seed}\u0000${key}`));
}
