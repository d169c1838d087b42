import { describe, expect, it } from 'vitest';
import { bootstrap, MAX_REPLICATE_VALUES } from '../../src/stats/bootstrap.js';
import { UserError } from '../../src/core/errors.js';

describe('bootstrap memory limit', () => {
  // A statistic per "cell" of a large table: statistics × reps above 2^29 values (4 GiB) is refused
  // before the estimand is evaluated once, with the --reps that would fit (⌊2^29 / statistics⌋).
  const s = 2 ** 20;
  let evaluated = 0;
  const estimand = { names: Array.from({ length: s }, (_, i) => `x${i}`), evaluate: () => { evaluated++; } };
  const cells = [{ id: 'a', obs: { kind: 'binary' as const, n: 10, x: 5 } }];

  it('refuses statistics × reps above the limit, naming the reps that fit', () => {
    expect(() => bootstrap(cells, estimand, { seed: 1, reps: 513 })).toThrow(UserError);
    expect(() => bootstrap(cells, estimand, { seed: 1, reps: 513 }))
      .toThrow('the bootstrap would hold 1,048,576 statistics × 513 replicates, above its limit of 4 GiB of replicates: use --reps 512 or fewer');
    expect(evaluated).toBe(0);
    expect(MAX_REPLICATE_VALUES / s).toBe(512);
  });
});
