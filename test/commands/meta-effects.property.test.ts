import fc from 'fast-check';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMeta } from '../../src/commands/meta.js';
import { UserError } from '../../src/core/errors.js';

/**
 * Effect tables with effects and variances over 600 orders of magnitude, ties, and moderator names
 * that are properties of Object's prototype: `meta --effects` either refuses in one line (a
 * UserError naming the file) or pools with finite numbers — never a silent row of NaN, never a
 * stack trace.
 */
const dir = mkdtempSync(join(tmpdir(), 'samegame-meta-prop-'));
const magnitude = fc.integer({ min: -300, max: 300 }).map((e) => 10 ** e);
const effect = fc.oneof({ arbitrary: fc.double({ min: -1, max: 1, noNaN: true }), weight: 12 }, { arbitrary: fc.constant(0.2), weight: 4 },
  magnitude, magnitude.map((x) => -x));
const variance = fc.oneof({ arbitrary: fc.double({ min: 1e-6, max: 1, noNaN: true, noDefaultInfinity: true }).filter((x) => x > 0), weight: 12 }, magnitude);
const table = fc.array(fc.tuple(fc.constantFrom('s1', 's2', 's3'), effect, variance), { minLength: 2, maxLength: 12 });
const moderator = fc.option(fc.constantFrom('constructor', '__proto__', 'toString', 'kind', 'valueOf'), { nil: undefined, freq: 2 });

describe('meta --effects on arbitrary effect tables', () => {
  it('refuses in one line or gives finite pooled numbers', () => {
    let n = 0;
    const seen = { pooled: 0, refused: 0 };
    fc.assert(fc.property(table, moderator, (rows, mod) => {
      const path = join(dir, `e${n++}.csv`);
      writeFileSync(path, `study,model,game,yi,vi,kind\n${rows.map(([s, yi, vi], i) => `${s},m${i},g,${yi},${vi},${i % 2 ? 'a' : 'b'}`).join('\n')}\n`);
      try {
        const res = runMeta({ effects: path, moderators: mod ? [mod] : undefined });
        for (const p of res.analysis.pooled) {
          for (const v of [p.estimate, p.se, p.ci_lo, p.ci_hi, p.tau2]) expect(Number.isFinite(v), `${p.scope}: ${JSON.stringify(p)}`).toBe(true);
        }
        if (mod && mod !== 'kind') expect.fail(`moderator ${mod} accepted`);
        seen.pooled++;
      } catch (e) {
        expect(e, String(e)).toBeInstanceOf(UserError);
        expect((e as Error).message.split('\n')).toHaveLength(1);
        expect((e as Error).message).toContain(path);
        seen.refused++;
      }
    }), { numRuns: 150, seed: 49 });
    // Both outcomes occur: the generator reaches tables that pool and tables that are refused.
    expect(seen.pooled).toBeGreaterThan(10);
    expect(seen.refused).toBeGreaterThan(10);
  });
});
