"""Reference values for src/stats/chi2.ts (test/stats/chi2.test.ts): scipy.special.gammainc,
scipy.stats.chi2 and ncx2, and the noncentrality interval by brentq on ncx2.cdf.
Run: python3 test/reference/chi2_reference.py"""
from scipy.special import gammainc
from scipy.stats import chi2, ncx2
from scipy.optimize import brentq

print('gammainc(2.5, 1.3)', repr(gammainc(2.5, 1.3)))
print('chi2.cdf(3.84, 1)', repr(chi2.cdf(3.84, 1)))
print('chi2.sf(50, 12)', repr(chi2.sf(50, 12)))
print('chi2.sf(300, 1)', repr(chi2.sf(300, 1)))
for x, k, lam in [(10, 3, 4.5), (500, 12, 600), (0.3, 1, 0.2), (30000, 12, 29000)]:
    print(f'ncx2.cdf({x}, {k}, {lam})', repr(ncx2.cdf(x, k, lam)))
for x, k in [(25, 12), (3, 1), (5000, 12)]:
    lo = brentq(lambda L: ncx2.cdf(x, k, L) - .975, 1e-12, 4 * x + 100, xtol=1e-12) if chi2.cdf(x, k) > .975 else 0.0
    hi = brentq(lambda L: ncx2.cdf(x, k, L) - .025, 1e-12, 4 * x + 100, xtol=1e-12)
    print(f'interval({x}, {k})', repr(lo), repr(hi))
