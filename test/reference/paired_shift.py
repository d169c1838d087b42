"""Reference intervals for the paired shift (test/analyses/two-framing/paired.test.ts): two framings
played in the same matches. CR2 and its Satterthwaite degrees of freedom by their general matrix
definitions (as test/reference/cluster_robust.py: cell-means OLS, A_j = (I - H_jj)^(-1/2), working
model of independent decisions), every decision of one match in one cluster whichever its framing;
with equal match lengths the same interval is the paired t interval on the match-level differences,
computed here directly as a check. A match with one dominant length: the t interval on the
match-level differences of the match means (the matches with decisions in both framings), widened
to hold the pooled difference. Quantiles from scipy.stats. Run: python3 test/reference/paired_shift.py"""
import json
import numpy as np
from scipy import stats

rng = np.random.default_rng(20261204)


def inv_sqrt(m):
    w, v = np.linalg.eigh(m)
    return v @ np.diag(1 / np.sqrt(w)) @ v.T


def cr2(rows, coef):
    """rows: (cluster, column, y); the contrast coef over the columns."""
    clusters = sorted({r[0] for r in rows})
    X = np.zeros((len(rows), len(coef)))
    y = np.array([r[2] for r in rows], float)
    for i, r in enumerate(rows):
        X[i, r[1]] = 1
    M = np.linalg.inv(X.T @ X)
    beta = M @ X.T @ y
    e = y - X @ beta
    IH = np.eye(len(rows)) - X @ M @ X.T
    c = np.array(coef, float)
    V, Gs = 0.0, []
    for g in clusters:
        idx = [i for i, r in enumerate(rows) if r[0] == g]
        p = inv_sqrt(IH[np.ix_(idx, idx)]) @ X[idx] @ M @ c
        V += float(p @ e[idx]) ** 2
        Gs.append(IH[:, idx] @ p)
    P = np.array(Gs) @ np.array(Gs).T
    return float(c @ beta), V, float(np.trace(P) ** 2 / np.sum(P ** 2))


def cell(ids, lengths, rates):
    sums = [int(rng.binomial(n, r)) for n, r in zip(lengths, rates)]
    return {"ids": ids, "sizes": [int(n) for n in lengths], "sums": sums}


def rows_of(cells):
    rows = []
    for k, c in enumerate(cells):
        for i, n, s in zip(c["ids"], c["sizes"], c["sums"]):
            rows += [(i, k, 1.0)] * s + [(i, k, 0.0)] * (n - s)
    return rows


def t_interval(est, V, df):
    h = float(stats.t.ppf(0.975, df)) * np.sqrt(V)
    return [est - h, est + h]


cases = []
# equal lengths: CR2 paired = paired t on match-level differences
G = 8
ids = [f"m{j}" for j in range(G)]
u = rng.beta(2, 3, size=G)
base, alt = cell(ids, [10] * G, u), cell(ids, [10] * G, np.minimum(1, u + 0.1))
est, V, df = cr2(rows_of([base, alt]), [-1, 1])
d = np.array(alt["sums"]) / 10 - np.array(base["sums"]) / 10
paired_t = t_interval(float(d.mean()), float(d.var(ddof=1) / G), G - 1)
assert abs(est - d.mean()) < 1e-12 and abs(V - d.var(ddof=1) / G) < 1e-12 and abs(df - (G - 1)) < 1e-9
cases.append({"name": "equal lengths, 8 matches", "cells": [base, alt], "estimate": est, "variance": V, "df": df,
              "interval": t_interval(est, V, df), "paired_t": paired_t})
# unequal lengths, each framing its own number of rounds in each match; the order of ids differs between the cells
u = rng.beta(2, 2, size=G)
lb, ls = rng.integers(4, 13, size=G), rng.integers(4, 13, size=G)
base = cell(ids, lb, u)
perm = rng.permutation(G)
alt = cell([ids[j] for j in perm], ls[perm], np.minimum(1, u[perm] + 0.15))
est, V, df = cr2(rows_of([base, alt]), [-1, 1])
cases.append({"name": "unequal lengths, 8 matches, ids in another order", "cells": [base, alt], "estimate": est, "variance": V, "df": df,
              "interval": t_interval(est, V, df)})
# partial overlap: 6 shared matches, 2 of the base framing's own, 1 of the alternative's own
u = rng.beta(2, 2, size=9)
base = cell([f"p{j}" for j in range(8)], rng.integers(5, 10, size=8), u[:8])
alt = cell([f"p{j}" for j in range(6)] + ["p8"], rng.integers(5, 10, size=7), np.minimum(1, np.concatenate([u[:6], u[8:]]) + 0.1))
est, V, df = cr2(rows_of([base, alt]), [-1, 1])
cases.append({"name": "6 of 9 matches shared", "cells": [base, alt], "estimate": est, "variance": V, "df": df, "interval": t_interval(est, V, df)})
# one dominant match: paired t on the match-mean differences, widened to hold the pooled difference
u = rng.beta(2, 2, size=6)
lb = np.array([60, 2, 3, 1, 2, 3]); ls = np.array([55, 3, 2, 2, 1, 3])
ids6 = [f"d{j}" for j in range(6)]
base, alt = cell(ids6, lb, u), cell(ids6, ls, np.minimum(1, u + 0.1))
md = np.array(alt["sums"]) / ls - np.array(base["sums"]) / lb
lo, hi = t_interval(float(md.mean()), float(md.var(ddof=1) / 6), 5)
pooled = sum(alt["sums"]) / ls.sum() - sum(base["sums"]) / lb.sum()
cases.append({"name": "one dominant match, 6 matches", "cells": [base, alt], "estimate": float(pooled), "df": 5,
              "interval": [max(-1.0, min(lo, pooled)), min(1.0, max(hi, pooled))]})
with open(__file__.replace('.py', '.json'), 'w') as f:
    json.dump(cases, f, indent=1)
print(len(cases), 'cases')
