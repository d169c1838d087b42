import { describe, expect, it } from 'vitest';
import { normalCdf, normalQuantile, Z95 } from '../../src/stats/normal.js';

describe('Z95, the one z of a two-sided 95 % interval', () => {
  it('is Φ⁻¹(0.975): the quantile function gives it and Φ maps it back to 0.975', () => {
    expect(Math.abs(Z95 - normalQuantile(0.975))).toBeLessThanOrEqual(1e-15 * Z95);
    expect(Math.abs(normalCdf(Z95) - 0.975)).toBeLessThanOrEqual(1e-15);
  });
});
