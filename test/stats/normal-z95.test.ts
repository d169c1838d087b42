import { describe, expect, it } from 'vitest';
import { normalCdf, normalQuantile, Z90, Z95, Z99 } from '../../src/stats/normal.js';

describe('Z95, the one z of a two-sided 95 % interval', () => {
  it('is Φ⁻¹(0.975): the quantile function gives it and Φ maps it back to 0.975', () => {
    expect(Math.abs(Z95 - normalQuantile(0.975))).toBeLessThanOrEqual(1e-15 * Z95);
    expect(Math.abs(normalCdf(Z95) - 0.975)).toBeLessThanOrEqual(1e-15);
  });
});

describe('Z90 and Z99, the z of two-sided 90 % and 99 % intervals (the funnel plot\'s contours)', () => {
  // The constants are scipy.special.ndtri's; normalQuantile itself is good to about 1e-14 relative.
  it.each([[Z90, 0.95], [Z99, 0.995]])('%s is Φ⁻¹(%s)', (z, p) => {
    expect(Math.abs(z - normalQuantile(p))).toBeLessThanOrEqual(1e-14 * z);
    expect(Math.abs(normalCdf(z) - p)).toBeLessThanOrEqual(1e-15);
  });
});
