"""Reference BCa intervals for test/stats/bca.test.ts, from scipy.stats.bootstrap(method='BCa').

Each cell is a 0/1 sample array (x ones out of n); every statistic is a multi-sample statistic of
all cells' arrays (rates = sample means), computed here with numpy on its own path. For each
statistic the script runs scipy's BCa bootstrap with several seeds: the mean endpoint is the
reference and the spread across seeds its Monte Carlo standard error. The acceleration, which has
no Monte Carlo error, is taken from scipy's own _bca_interval. Also records scipy.special ndtr and
ndtri values for the normal-distribution functions.

Run: python3 test/reference/bca_reference.py > test/reference/bca_reference.json
"""
import json
import sys

import numpy as np
import scipy
from scipy import stats
from scipy.special import ndtr, ndtri, xlogy

N_RESAMPLES = 9999
SEEDS = [11, 12, 13, 14, 15, 16, 17, 18]
LN2 = np.log(2.0)


def entropy(p):
    return -xlogy(p, p) - xlogy(1 - p, 1 - p)


def r2(p, q):
    jsd = entropy((p + q) / 2) - (entropy(p) + entropy(q)) / 2
    return 1 - np.maximum(jsd, 0) / LN2


DATASETS = {
    # Framings that barely differ: R and family R near 1 (no attenuation, as for direct runs).
    "near1": {
        "attenuation": 1.0,
        "framings": ["business", "friend-sharing", "team"],
        "cells": [
            ["A", "G1", 300, [150, 152, 149]],
            ["A", "G2", 300, [90, 91, 93]],
            ["B", "G1", 300, [200, 199, 201]],
            ["B", "G2", 300, [30, 31, 29]],
        ],
    },
    # Cells at 0/n and n/n, mixed n, attenuation 0.7 (as for reconstructed data).
    "edges": {
        "attenuation": 0.7,
        "framings": ["business", "friend-sharing"],
        "cells": [
            ["A", "G1", 300, [0, 12]],
            ["A", "G2", 300, [300, 290]],
            ["B", "G1", 120, [45, 80]],
            ["B", "G2", 120, [60, 56]],
        ],
    },
}


def statistics(ds):
    """name -> function of the list of cell rates (arrays), following docs/methods.md §3–§6."""
    nf = len(ds["framings"])
    a = ds["attenuation"]
    mg = [(c[0], c[1]) for c in ds["cells"]]

    def idx(i, f):
        return i * nf + f

    def pair_r2(r, i):
        return r2(r[idx(i, 0)], r[idx(i, 1)])

    def pair_shift(r, i):
        return r[idx(i, 1)] - r[idx(i, 0)]

    def rfam(r, i):
        js = []
        for x in range(nf):
            for y in range(x + 1, nf):
                js.append(1 - r2(r[idx(i, x)], r[idx(i, y)]))
        return 1 - np.max(np.stack(js), axis=0)

    def mean_over(fn, which):
        return lambda r: sum(fn(r, i) for i in which) / len(which)

    model_a = [i for i, (m, _) in enumerate(mg) if m == "A"]
    allp = list(range(len(mg)))
    out = {
        'R2["A","G1"]': lambda r: pair_r2(r, 0),
        'shift_raw["A","G1"]': lambda r: pair_shift(r, 0),
        'R2_conservative["A","G2"]': lambda r: 1 - a * (1 - pair_r2(r, 1)),
        'R["A"]': lambda r: 1 - a * (1 - mean_over(pair_r2, model_a)(r)),
        'R["Pooled"]': lambda r: 1 - a * (1 - mean_over(pair_r2, allp)(r)),
        'shift["Pooled"]': lambda r: a * mean_over(pair_shift, allp)(r),
    }
    if nf > 2:
        out['Rfam["A","G1"]'] = lambda r: rfam(r, 0)
        out['Rfam["Pooled"]'] = lambda r: mean_over(rfam, allp)(r)
    return out


def samples(ds):
    arrays = []
    for _, _, n, xs in ds["cells"]:
        for x in xs:
            arrays.append(np.concatenate([np.ones(x), np.zeros(n - x)]))
    return arrays


def run(ds):
    data = samples(ds)
    result = {}
    for name, fn in statistics(ds).items():
        def statistic(*s, axis=-1, fn=fn):
            return fn([np.mean(x, axis=axis) for x in s])

        los, his = [], []
        for seed in SEEDS:
            res = stats.bootstrap(data, statistic, n_resamples=N_RESAMPLES, method="BCa", vectorized=True,
                                  random_state=np.random.default_rng(seed), batch=1000)
            los.append(float(res.confidence_interval.low))
            his.append(float(res.confidence_interval.high))
        point = float(statistic(*data))
        accel = None
        try:
            from scipy.stats._resampling import _bca_interval
            theta_b = np.array([statistic(*[np.random.default_rng(0).choice(x, x.size) for x in data])])
            _, _, a_hat = _bca_interval(data, statistic, -1, 0.025, theta_b, 1000, np)
            accel = float(a_hat)
        except Exception as e:  # private API: record why it is missing
            print(f"acceleration unavailable for {name}: {e}", file=sys.stderr)
        result[name] = {
            "point": point,
            "acceleration": accel,
            "lo": float(np.mean(los)), "hi": float(np.mean(his)),
            "lo_sd": float(np.std(los, ddof=1)), "hi_sd": float(np.std(his, ddof=1)),
        }
    return result


def clean(x):
    """JSON has no NaN: scipy's NaN ends (z0 infinite) are written as null."""
    if isinstance(x, float) and x != x:
        return None
    if isinstance(x, dict):
        return {k: clean(v) for k, v in x.items()}
    if isinstance(x, list):
        return [clean(v) for v in x]
    return x


def main():
    out = {
        "scipy": scipy.__version__,
        "n_resamples": N_RESAMPLES,
        "seeds": SEEDS,
        "level": 0.95,
        "normal": {
            "ndtr": [[z, float(ndtr(z))] for z in [-8, -5, -3, -1.96, -1, -0.3, 0, 0.5, 1.5, 2.5, 4, 7]],
            "ndtri": [[p, float(ndtri(p))] for p in [1e-10, 0.001, 0.025, 0.3, 0.5, 0.77, 0.975, 0.999, 1 - 1e-9]],
        },
        "datasets": {},
    }
    # NaN ends are written as null (see clean).
    for key, ds in DATASETS.items():
        out["datasets"][key] = {**ds, "statistics": run(ds)}
    json.dump(clean(out), sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
