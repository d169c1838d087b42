"""The peer of bench/logs-engine.ts: what a researcher would write with DuckDB and numpy.

DuckDB runs the aggregation query (the one `samegame sql` prints for the log: per cell, match, round and
previous state, the decisions, valid ones and cooperations), then numpy computes, per cell, the
cooperation rate over all rounds, per round and per previous state, each with a CR2 cluster-robust 95 %
interval by match (intercept-only closed form: u_j = (s_j - p n_j) / sqrt(1 - n_j / N), V = sum u_j^2 / N^2,
t quantile on G - 1 degrees of freedom: samegame's Satterthwaite df and its effective-n Clopper-Pearson
near 0 and 1 are not reproduced). Prints JSON with the best and median wall time of `runs` repetitions,
measured inside Python (interpreter start and imports not included).
Usage: python3 bench/duckdb_numpy_repeated.py QUERY.sql runs
"""
import json, sys, time

import duckdb
import numpy as np
from scipy import stats

query, runs = open(sys.argv[1]).read().strip().rstrip(";"), int(sys.argv[2])


def intervals(cell, n, s, cells):
    """Per cell: the rate of one column and its CR2 interval, clusters (matches) with n > 0, vectorized over cells."""
    keep = n > 0
    cell, n, s = cell[keep], n[keep], s[keep]
    N, S, G = (np.bincount(cell, w, cells) for w in (n, s, np.ones(len(n))))
    with np.errstate(invalid="ignore", divide="ignore"):
        p = S / N
        u = (s - p[cell] * n) / np.sqrt(np.maximum(1 - n / N[cell], 1e-12))
        se = np.sqrt(np.bincount(cell, u ** 2, cells)) / N
        t = stats.t.ppf(0.975, np.maximum(G - 1, 1))
        lo, hi = np.clip(p - t * se, 0, 1), np.clip(p + t * se, 0, 1)
    lo[G < 3], hi[G < 3] = np.nan, np.nan
    return p, lo, hi


def once():
    con = duckdb.connect()
    d = con.execute(f"""SELECT dense_rank() OVER (ORDER BY model, game, framing, opponent) - 1 AS c, dense_rank() OVER (ORDER BY match) - 1 AS m,
      round AS r, CASE previous WHEN 'CC' THEN 1 WHEN 'CD' THEN 2 WHEN 'DC' THEN 3 WHEN 'DD' THEN 4 ELSE 0 END AS s, valid AS v, cooperations AS k
      FROM ({query})""").fetchnumpy()
    c, m, r, st = (np.asarray(d[x], np.int64) for x in ("c", "m", "r", "s"))
    v, k = np.asarray(d["v"], float), np.asarray(d["k"], float)
    width = m.max() + 1
    pairs, pj = np.unique(c * width + m, return_inverse=True)
    cell, cells = pairs // width, c.max() + 1
    masks = [np.ones(len(c), bool)] + [r == x for x in range(1, r.max() + 1)] + [st == x for x in range(1, 5)]
    out = [intervals(cell, np.bincount(pj[q], v[q], len(pairs)), np.bincount(pj[q], k[q], len(pairs)), cells) for q in masks]
    return sum(len(o[0]) for o in out)


times = []
for _ in range(runs):
    t = time.perf_counter()
    stats_made = once()
    times.append(time.perf_counter() - t)
print(json.dumps({"min_s": min(times), "median_s": float(np.median(times)), "statistics": stats_made,
                  "numpy": f"numpy {np.__version__} + duckdb {duckdb.__version__}"}))
