"""Reference values for meta-regressions (a continuous and a two-level moderator) in which one cell's
sampling variance is far below the others' (1e-12, 1e-18, 1e-30 beside 0.01).

metafor's rma(yi, vi, mods = ~x) loses such a cell: its sums W = 1/(v + tau2) mix a weight of 1e30
with weights of 100, so P = W - WX(X'WX)^-1 X'W cancels (QE 0 or 25235 at 1e-12 where the limit is
17.87 and 13.79), and below ~1e-16 it stops with "singular matrix 'a' in solve". The reference is
therefore the model's definitions evaluated in 60-digit arithmetic (mpmath), with full k x k matrices:
W = diag(1/(v + tau2)), A = (X'WX)^-1, beta = A X'W y, P = W - W X A X' W; DL tau2 =
max(0, (y'P0y - (k - p))/tr P0); REML tau2 the maximum of the restricted log-likelihood
-1/2 [sum log(v + tau2) + log det X'WX + y'Py] (the root of y'PPy - tr P; 0 when that is <= 0 at 0);
Hartung-Knapp with the ad hoc truncation (vb = max(1, s2) A, s2 = y'Py/(k - p), t with k - p df) and
QM = b' vb^-1 b / m (F). The same code is checked against metafor (rma, control threshold 1e-12) on
the same tables with the variance at 1e-4 and 1e-6 of the others', where metafor's sums are still
exact enough (asserted to 1e-7 relative, written beside as "metafor"); a level held by the tiny cell
alone ("own/…", checked against metafor on the other cells); a moderator scaled by 1e200 and 1e-200
("scaled", metafor on the unscaled one); tr P, tr PP of one weighting with a heavy row ("traces"); and two or three tiny cells whose moderator rows are
linearly dependent ("dependent": twelve cells, x = i mod 5, the tiny cells sharing a value and disagreeing, or three on
the regression's line, also with tiny variances of different sizes), checked against metafor with the tiny variances at 1e-4. Run from the repository root:

    python3 test/reference/meta/make-reference-tiny-mods.py

It needs mpmath, scipy and R with metafor; it writes test/reference/meta/reference-tiny-mods.json,
which npm test reads (never Python or R).
"""
import json
import subprocess

import mpmath as mp
from scipy import stats

mp.mp.dps = 60
Y = [0.1, 0.45, 0.3, -0.15, 0.22, 0.35, 0.41, -0.2]
MODS = {"x": [1, 2, 3, 1.5, 2.5, 0.5, 4, 0], "g": [0, 1, 1, 0, 1, 0, 1, 0]}
BASE = [0.02, 0.01, 0.03, 0.02, 0.01, 0.015, 0.04, 0.025]
TINY_AT = [2, 6]  # 0-based: the third cell (x = 3) and the seventh (x = 4, the largest leverage)


def fit(y, v, x, method):
    k, p = len(y), 2
    X = mp.matrix([[1, xi] for xi in x])
    yv = mp.matrix([mp.mpf(t) for t in y])

    def parts(t2):
        W = mp.diag([1 / (mp.mpf(vi) + t2) for vi in v])
        XtW = X.T * W
        A = (XtW * X) ** -1
        P = W - W * X * A * XtW
        return W, A, P

    def score(t2):
        _, _, P = parts(t2)
        Py = P * yv
        return (Py.T * Py)[0] - sum(P[i, i] for i in range(k))

    def reml_ll(t2):
        W, A, P = parts(t2)
        return -(sum(mp.log(mp.mpf(vi) + t2) for vi in v) - mp.log(mp.det(A)) + (yv.T * P * yv)[0]) / 2

    W0, A0, P0 = parts(mp.mpf(0))
    Q = (yv.T * P0 * yv)[0]
    if method == "DL":
        tau2 = max(mp.mpf(0), (Q - (k - p)) / sum(P0[i, i] for i in range(k)))
    elif score(mp.mpf(0)) <= 0:
        tau2 = mp.mpf(0)
    else:
        grid = [mp.mpf(10) ** (e / 20) for e in range(-240, 21)]
        vals = [reml_ll(t) for t in grid]
        b = max(range(len(grid)), key=lambda i: vals[i])
        tau2 = mp.findroot(score, (grid[max(b - 1, 0)], grid[min(b + 1, len(grid) - 1)]), solver="anderson", tol=mp.mpf(10) ** -50)
    W, A, P = parts(tau2)
    beta = A * X.T * W * yv
    s2 = (yv.T * P * yv)[0] / (k - p)
    vb = A * max(mp.mpf(1), s2)
    crit = stats.t.ppf(0.975, k - p)
    se = [mp.sqrt(vb[j, j]) for j in range(p)]
    QM = beta[1] ** 2 / vb[1, 1]
    return {"b0": float(beta[0]), "b1": float(beta[1]), "se0": float(se[0]), "se1": float(se[1]),
            "ci_lo1": float(beta[1] - crit * se[1]), "ci_hi1": float(beta[1] + crit * se[1]),
            "tau2": float(tau2), "Q": float(Q), "QM": float(QM)}


R = r"""
suppressMessages(library(metafor))
a <- commandArgs(TRUE); y <- as.numeric(strsplit(a[1], ",")[[1]]); v <- as.numeric(strsplit(a[2], ",")[[1]])
x <- as.numeric(strsplit(a[3], ",")[[1]])
f <- rma(y, v, mods = ~x, method = a[4], test = "adhoc", control = list(threshold = 1e-12, maxiter = 10000, tol = 1e-12))
cat(sprintf("%.17g", c(f$b, f$se, f$ci.lb[2], f$ci.ub[2], f$tau2, f$QE, f$QM)), sep = " ")
"""


def metafor(y, v, x, method):
    cmd = ["Rscript", "-e", R, ",".join(map(repr, y)), ",".join(map(repr, v)), ",".join(map(repr, x)), method]
    n = [float(t) for t in subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.split()]
    return dict(zip(["b0", "b1", "se0", "se1", "ci_lo1", "ci_hi1", "tau2", "Q", "QM"], n))


cases = {}
for mod, x in MODS.items():
    for at in TINY_AT:
        for method in ["REML", "DL"]:
            for tiny in [1e-4, 1e-6]:
                v = BASE[:]; v[at] = tiny
                mine, theirs = fit(Y, v, x, method), metafor(Y, v, x, method)
                for key, want in theirs.items():
                    assert abs(mine[key] - want) <= 1e-7 * max(abs(want), 1e-3), (mod, at, method, tiny, key, mine[key], want)
                cases[f"{mod}/{at + 1}/{method}@{tiny:g}"] = {"v": v, "x": x, "fit": mine, "metafor": theirs}
            for tiny in [1e-12, 1e-18, 1e-30]:
                v = BASE[:]; v[at] = tiny
                cases[f"{mod}/{at + 1}/{method}@{tiny:g}"] = {"v": v, "x": x, "fit": fit(Y, v, x, method)}
# A moderator level held by the tiny cell alone (a dummy for it): the other rows do not identify its
# coefficient. REML drops such a cell (it has its own parameter), so b0, its SE and tau2 are metafor's
# intercept-only fit of the seven others (asserted), and b1 = y3 - b0.
own = [0, 0, 1, 0, 0, 0, 0, 0]
others = [i for i in range(len(Y)) if own[i] == 0]
R_OTHERS = r"""
suppressMessages(library(metafor))
a <- commandArgs(TRUE); y <- as.numeric(strsplit(a[1], ",")[[1]]); v <- as.numeric(strsplit(a[2], ",")[[1]])
f <- rma(y, v, method = "REML", test = "adhoc", control = list(threshold = 1e-12, maxiter = 10000, tol = 1e-12))
cat(sprintf("%.17g", c(f$b, f$se, f$tau2)), sep = " ")
"""
out7 = subprocess.run(["Rscript", "-e", R_OTHERS, ",".join(repr(Y[i]) for i in others), ",".join(repr(BASE[i]) for i in others)],
                      capture_output=True, text=True, check=True).stdout.split()
b0_7, se0_7, tau2_7 = map(float, out7)
for tiny in [1e-12, 1e-30]:
    v = BASE[:]; v[2] = tiny
    mine = fit(Y, v, own, "REML")
    assert abs(mine["b0"] - b0_7) <= 1e-7 * abs(b0_7) and abs(mine["se0"] - se0_7) <= 1e-7 * se0_7 and abs(mine["tau2"] - tau2_7) <= 1e-9, (mine, out7)
    cases[f"own/3/REML@{tiny:g}"] = {"v": v, "x": own, "fit": mine}
# A numeric moderator 0..7 and its copies scaled by 1e200 and 1e-200: metafor on 0..7 (the fit is equivariant in each column).
scaled = {"x": list(range(8)), "v": BASE, "metafor": metafor(Y, BASE, list(range(8)), "REML"), "factors": [1e200, 1e-200]}
# tr P and tr PP of one weighting with a heavy row (1e7 beside 25 to 100), by the definitions.
TRACE_W = [50, 100, 1e7, 50, 100, 66, 25, 40]
Xm, Wm = mp.matrix([[1, xi] for xi in MODS["x"]]), mp.diag(TRACE_W)
Pm = Wm - Wm * Xm * (Xm.T * Wm * Xm) ** -1 * Xm.T * Wm
traces = {"w": TRACE_W, "x": MODS["x"], "P": float(sum(Pm[i, i] for i in range(len(Y)))),
          "PP": float(sum(Pm[i, j] ** 2 for i in range(len(Y)) for j in range(len(Y))))}
# Tiny cells whose moderator rows are dependent: cells 3 and 8 (x = 2 both, y 0.3 and -0.2), cells 2 to 4 (x = 1, 2, 3),
# and cells 3, 5 and 8 (x = 2, 4, 2).
DEP_Y = [0.1, 0.45, 0.3, -0.15, 0.22, 0.35, 0.41, -0.2, 0.05, 0.3, 0.12, 0.28]
DEP_BASE = [0.02, 0.01, 0.03, 0.02, 0.01, 0.015, 0.04, 0.025, 0.02, 0.03, 0.01, 0.02]
DEP_X = [i % 5 for i in range(12)]
dependent = {}
for at in [[2, 7], [1, 2, 3], [2, 4, 7]]:
    for method in ["REML", "DL"]:
        name = "+".join(str(i + 1) for i in at)
        v = [1e-4 if i in at else b for i, b in enumerate(DEP_BASE)]
        mine, theirs = fit(DEP_Y, v, DEP_X, method), metafor(DEP_Y, v, DEP_X, method)
        for key, want in theirs.items():
            assert abs(mine[key] - want) <= 1e-7 * max(abs(want), 1e-3), (at, method, key, mine[key], want)
        dependent[f"{name}/{method}@0.0001"] = {"v": v, "fit": mine, "metafor": theirs}
        for tiny in [1e-12, 1e-20, 1e-30]:
            v = [tiny if i in at else b for i, b in enumerate(DEP_BASE)]
            dependent[f"{name}/{method}@{tiny:g}"] = {"v": v, "fit": fit(DEP_Y, v, DEP_X, method)}
# Tiny variances of different sizes on dependent rows (the heaviest dwarfs the others: the contrasts weigh ~1/the larger).
for name, tiny_at in {"3@1e-30+8@1e-20": {2: 1e-30, 7: 1e-20}, "2@1e-25+3@1e-30+8@1e-12": {1: 1e-25, 2: 1e-30, 7: 1e-12},
                      "2@1e-30+3@1e-20+4@1e-16": {1: 1e-30, 2: 1e-20, 3: 1e-16}}.items():
    for method in ["REML", "DL"]:
        v = [tiny_at.get(i, b) for i, b in enumerate(DEP_BASE)]
        dependent[f"{name}/{method}@mixed"] = {"v": v, "fit": fit(DEP_Y, v, DEP_X, method)}
with open("test/reference/meta/reference-tiny-mods.json", "w") as out:
    json.dump({"y": Y, "cases": cases, "traces": traces, "scaled": scaled,
               "dependent": {"y": DEP_Y, "x": DEP_X, "cases": dependent}}, out, indent=1)
    out.write("\n")
