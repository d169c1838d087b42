"""Reference values for the Monte Carlo interval of a coverage study (coverage_lo, coverage_hi in
reports/coverage.csv; test/analyses/coverage/mc-interval.test.ts): the two-sided 95 % Clopper-Pearson
interval on x covered of n simulations, from scipy.stats.beta.ppf and, as a check, from
scipy.stats.binomtest(x, n).proportion_ci(method='exact').
Run: python3 test/reference/clopper_pearson.py > test/reference/clopper_pearson.json"""
import json
from scipy.stats import beta, binomtest

CASES = [(0, 200), (200, 200), (190, 200), (1, 200), (199, 200), (472, 500), (0, 1), (1, 1), (3, 7), (9500, 10000), (0, 10000), (10000, 10000)]
rows = []
for x, n in CASES:
    lo = 0.0 if x == 0 else float(beta.ppf(0.025, x, n - x + 1))
    hi = 1.0 if x == n else float(beta.ppf(0.975, x + 1, n - x))
    ci = binomtest(x, n).proportion_ci(confidence_level=0.95, method='exact')
    assert abs(ci.low - lo) < 1e-12 and abs(ci.high - hi) < 1e-12, (x, n)
    rows.append({'covered': x, 'sims': n, 'lo': lo, 'hi': hi})
print(json.dumps({'source': 'scipy.stats.beta.ppf (checked against binomtest(...).proportion_ci(method="exact"))', 'level': 0.95, 'rows': rows}, indent=1))
