"""Reference values for src/stats/cluster-robust.ts and t-beta.ts, computed independently.

CR2 (Bell & McCaffrey 2002) and the Satterthwaite degrees of freedom of Pustejovsky & Tipton (2018)
by their general matrix definitions, for the cell-means OLS regression of 0/1 decisions on one
indicator per column, clusters = matches: A_j = (I - H_jj)^(-1/2) by eigendecomposition,
V = sum_j (p_j' e_j)^2 with p_j = A_j X_j M c, and df = (sum_j G_j'G_j)^2 / sum_ij (G_i'G_j)^2 with
G_j = (I - H)[:, rows of j] p_j (working model: independent decisions). No closed form is used.
Quantiles from scipy.stats. Run: python3 test/reference/cluster_robust.py > test/reference/cluster_robust.json
"""
import json
import numpy as np
from scipy import stats

rng = np.random.default_rng(20261201)


def inv_sqrt(m):
    w, v = np.linalg.eigh(m)
    return v @ np.diag(1 / np.sqrt(w)) @ v.T


def cr2(rows, coef):
    """rows: list of (cluster, column, y). coef: one per column."""
    clusters = sorted({r[0] for r in rows})
    K = len(coef)
    X = np.zeros((len(rows), K))
    y = np.array([r[2] for r in rows], float)
    for i, r in enumerate(rows):
        X[i, r[1]] = 1
    M = np.linalg.inv(X.T @ X)
    beta = M @ X.T @ y
    e = y - X @ beta
    H = X @ M @ X.T
    IH = np.eye(len(rows)) - H
    c = np.array(coef, float)
    V = 0.0
    Gs = []
    for g in clusters:
        idx = [i for i, r in enumerate(rows) if r[0] == g]
        A = inv_sqrt(IH[np.ix_(idx, idx)])
        p = A @ X[idx] @ M @ c
        V += float(p @ e[idx]) ** 2
        Gs.append(IH[:, idx] @ p)
    G = np.array(Gs)
    P = G @ G.T
    df = float(np.trace(P) ** 2 / np.sum(P ** 2))
    return float(c @ beta), V, df


def case(name, columns, coef, groups):
    """columns: list of lists of (size, sum) per cluster; groups: the group of each column (same group: same clusters)."""
    rows = []
    for k, col in enumerate(columns):
        for j, (n, s) in enumerate(col):
            cl = (groups[k], j)
            rows += [(cl, k, 1.0)] * int(s) + [(cl, k, 0.0)] * int(n - s)
    est, V, df = cr2(rows, coef)
    return {"name": name, "columns": [{"sizes": [int(c[0]) for c in col], "sums": [int(c[1]) for c in col]} for col in columns],
            "coef": coef, "groups": groups, "estimate": est, "variance": V, "df": df}


def random_column(G, lo, hi, p):
    out = []
    for _ in range(G):
        n = int(rng.integers(lo, hi + 1))
        out.append((n, int(rng.binomial(n, p))))
    return out


cases = [
    case("equal sizes, one column", [[(10, 3), (10, 5), (10, 2), (10, 7)]], [1.0], [0]),
    case("unequal sizes, one column", [random_column(6, 3, 15, 0.4)], [1.0], [0]),
    case("two independent cells", [random_column(5, 4, 12, 0.3), random_column(7, 2, 10, 0.6)], [-1.0, 1.0], [0, 1]),
]
# paired: last round (1 decision) and rounds before it (9 or fewer) of the same matches
last = [(1, int(rng.binomial(1, 0.5))) for _ in range(6)]
before = [(n, int(rng.binomial(n, 0.6))) for n in rng.integers(5, 10, 6)]
cases.append(case("paired columns of the same matches", [last, before], [1.0, -1.0], [0, 0]))
cases.append(case("weighted mean of four cells", [random_column(4, 5, 9, p) for p in (0.2, 0.3, 0.7, 0.9)], [0.5, -0.5, 0.25, 0.25], [0, 1, 2, 3]))

quantiles = {
    "t": [{"p": p, "df": df, "q": float(stats.t.ppf(p, df))} for p, df in [(0.975, 1), (0.975, 2), (0.975, 4.5), (0.975, 9), (0.025, 29), (0.995, 200), (0.975, 1.5), (0.9995, 3), (0.975, 5000)]],
    "beta": [{"p": p, "a": a, "b": b, "q": float(stats.beta.ppf(p, a, b))} for p, a, b in [(0.025, 3, 8), (0.975, 4, 7), (0.025, 0.5, 30.5), (0.975, 29.5, 0.5), (0.025, 6.3, 1), (0.5, 120, 80), (0.5, 0.5, 0.5), (1e-6, 1.2, 300), (0.975, 300, 1.2), (0.025, 0.05, 2), (0.975, 2, 0.05)]],
}
print(json.dumps({"cases": cases, "quantiles": quantiles}, indent=1))
