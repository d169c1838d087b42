"""Reference values for src/stats/confseq: an independent numpy computation of the hedged betting
confidence sequence (Waudby-Smith and Ramdas 2023) and of the two-sided normal-mixture boundary
(Howard, Ramdas, McAuliffe and Sekhon 2021), with the settings of the confseq package's
`hedged_cs` (alpha, breaks=1000, theta=1/2, trunc_scale=1/2, prior mean 1/2, prior variance 1/4,
one fake observation, running intersection) and `conjmix_hoeffding_twosided_cs` (t_opt).

The betting sequence is computed as a matrix over the whole grid of candidate means at once
(numpy broadcasting), not one observation at a time as the TypeScript does.

Checked once (not part of the tests) against the confseq package's own `hedged_cs`, run from its
source (github gostevehoward/confseq at 70b1ef3, numpy 2 spelling fixed): the betting values of
reference.json agreed exactly at all 216 (series, alpha, intersect, t) points.

Run: python3 test/reference/confseq/make_reference.py  (writes reference.json beside it)
"""
import json
import os

import numpy as np


def plug_in_bets(x, alpha):
    t = np.arange(1, len(x) + 1)
    mean = np.minimum((0.5 + np.cumsum(x)) / (t + 1), 1.0)
    var = (0.25 + np.cumsum((x - mean) ** 2)) / (t + 1)
    var_before = np.concatenate(([0.25], var[:-1]))
    lam = np.sqrt(2 * np.log(1 / alpha) / (t * np.log(1 + t) * var_before))
    lam[np.isnan(lam)] = 0
    return lam


def betting(x, alpha, breaks=1000, intersect=True):
    x = np.asarray(x, dtype=float)
    grid = np.arange(0, 1 + 1 / breaks, step=1 / breaks)[:, None]
    with np.errstate(divide='ignore'):
        lam_up = np.minimum(plug_in_bets(x, alpha / 2)[None, :], 0.5 / grid)
        lam_down = np.minimum(plug_in_bets(x, alpha / 2)[None, :], 0.5 / (1 - grid))
    up = np.cumprod(1 + lam_up * (x[None, :] - grid), axis=1)
    down = np.cumprod(1 - lam_down * (x[None, :] - grid), axis=1)
    inside = np.maximum(up / 2, down / 2) <= 1 / alpha
    lo, hi = np.zeros(len(x)), np.ones(len(x))
    for j in range(len(x)):
        k = np.flatnonzero(inside[:, j])
        if len(k):
            lo[j] = max(0.0, grid[k[0], 0] - 1 / breaks)
            hi[j] = min(1.0, grid[k[-1], 0] + 1 / breaks)
    if intersect:
        lo, hi = np.maximum.accumulate(lo), np.minimum.accumulate(hi)
    return lo, hi


def normal_mixture(x, alpha, t_opt, intersect=True):
    x = np.asarray(x, dtype=float)
    t = np.arange(1, len(x) + 1)
    l = np.log(1 / alpha)
    rho = (t_opt / 4) / (2 * l + np.log(1 + 2 * l))
    v = t / 4
    b = np.sqrt((v + rho) * (np.log(1 + v / rho) + 2 * l)) / t
    mean = np.cumsum(x) / t
    lo, hi = np.maximum(mean - b, 0), np.minimum(mean + b, 1)
    if intersect:
        lo, hi = np.maximum.accumulate(lo), np.minimum.accumulate(hi)
    return lo, hi


def main():
    rng = np.random.default_rng(20260)
    series = {
        'bernoulli_0.3': rng.binomial(1, 0.3, 300).astype(float),
        'bernoulli_0.02': rng.binomial(1, 0.02, 300).astype(float),
        'all_zero': np.zeros(120),
        'beta_2_5': rng.beta(2, 5, 200),
        'pair_difference': (rng.choice([-1.0, 0.0, 1.0], 250, p=[0.15, 0.6, 0.25]) + 1) / 2,
    }
    times = [1, 2, 5, 10, 20, 40, 60, 100, 120, 200, 250, 300]
    cases = []
    for name, x in series.items():
        at = [t for t in times if t <= len(x)]
        for alpha in (0.05, 0.1):
            for intersect in (True, False):
                lo, hi = betting(x, alpha, intersect=intersect)
                cases.append({'series': name, 'method': 'betting', 'alpha': alpha, 'intersect': intersect,
                              'breaks': 1000, 't': at, 'lo': [lo[t - 1] for t in at], 'hi': [hi[t - 1] for t in at]})
                for t_opt in (50, 300):
                    lo, hi = normal_mixture(x, alpha, t_opt, intersect=intersect)
                    cases.append({'series': name, 'method': 'normal-mixture', 'alpha': alpha, 'intersect': intersect,
                                  'tOpt': t_opt, 't': at, 'lo': [lo[t - 1] for t in at], 'hi': [hi[t - 1] for t in at]})
    out = {
        'generator': 'test/reference/confseq/make_reference.py (numpy %s)' % np.__version__,
        'tolerance': {'betting': 'one grid step, 1/breaks', 'normal-mixture': 1e-12},
        'series': {k: v.tolist() for k, v in series.items()},
        'cases': cases,
    }
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'reference.json')
    with open(path, 'w') as f:
        json.dump(out, f, indent=1)
        f.write('\n')


if __name__ == '__main__':
    main()
