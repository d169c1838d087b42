"""Independent generator (numpy/scipy) of clustered data sets where one or a few matches hold most
decisions, for test/stats/dominant-matches.test.ts and test/analyses/two-framing/dominant-matches.test.ts.
Matches are beta-binomial (a match's rate ~ Beta with mean p and intra-match correlation ICC, its
decisions Binomial(length, rate)); each cell has matches of its own. Writes dominant_matches.json:
- "shift": one cell pair per data set, one ~60-round match and G - 1 of 1-3 rounds per cell;
- "pairs12": 12 model-game pairs (3 models x 4 games), G = 6 matches per cell, each match huge
  (40-80 rounds, probability 0.25) or tiny (1-3 rounds); the true rates of every cell;
- "near": balanced 10-round matches at rates 0.95 / 0.95 (ICC 0.1, 0.3, 0.6; G = 3 and 5), with the Welch interval
  on match means (scipy's t quantile) of each data set, the yardstick of the shift's width.
Run: python3 test/reference/dominant_matches.py"""
import json
import numpy as np
from scipy import stats

rng = np.random.default_rng(20261203)
SETS = 300


def cell(p, icc, lengths):
    a = p * (1 / icc - 1)
    b = (1 - p) * (1 / icc - 1)
    rates = rng.beta(a, b, size=len(lengths))
    return {"sizes": [int(n) for n in lengths], "sums": [int(x) for x in rng.binomial(lengths, rates)]}


def dominant(G):
    return np.concatenate([[int(rng.integers(50, 71))], rng.integers(1, 4, size=G - 1)])


def huge_tiny(G):
    huge = rng.random(G) < 0.25
    return np.where(huge, rng.integers(40, 81, size=G), rng.integers(1, 4, size=G))


def welch(a, b):
    ma = np.array(a["sums"]) / np.array(a["sizes"])
    mb = np.array(b["sums"]) / np.array(b["sizes"])
    va, vb = ma.var(ddof=1) / len(ma), mb.var(ddof=1) / len(mb)
    d = mb.mean() - ma.mean()
    if va + vb == 0:
        return None
    df = (va + vb) ** 2 / ((va ** 2 / (len(ma) - 1) if va else 0) + (vb ** 2 / (len(mb) - 1) if vb else 0))
    h = stats.t.ppf(0.975, df) * np.sqrt(va + vb)
    return [float(d - h), float(d + h)]


out = {"shift": [], "pairs12": [], "near": []}
for G in (6, 8):
    for base, alt, icc in ((0.3, 0.45, 0.3), (0.2, 0.2, 0.6)):
        sets = [[cell(base, icc, dominant(G)), cell(alt, icc, dominant(G))] for _ in range(SETS)]
        out["shift"].append({"name": f"shift {base} -> {alt}, ICC {icc}, one 50-70-round match + {G - 1} of 1-3 rounds",
                             "base": base, "alt": alt, "icc": icc, "G": G, "sets": sets})

MODELS, GAMES = ["m1", "m2", "m3"], ["g1", "g2", "g3", "g4"]
for icc in (0.3,):
    base = {(m, g): float(rng.uniform(0.2, 0.7)) for m in MODELS for g in GAMES}
    alt = {k: float(min(0.95, v + rng.choice([0.0, 0.1, 0.2]))) for k, v in base.items()}
    cells = [{"model": m, "game": g, "framing": f, "p": (base if f == "b" else alt)[(m, g)]} for m in MODELS for g in GAMES for f in ("b", "s")]
    sets = [[cell(c["p"], icc, huge_tiny(6)) for c in cells] for _ in range(SETS)]
    out["pairs12"].append({"name": f"12 pairs, G = 6 huge (40-80) or tiny (1-3) matches, ICC {icc}", "icc": icc, "cells": cells, "sets": sets})

for icc, G in ((0.3, 3), (0.3, 5), (0.1, 3), (0.1, 5), (0.6, 5)):
    sets = []
    while len(sets) < SETS:
        a, b = cell(0.95, icc, np.full(G, 10)), cell(0.95, icc, np.full(G, 10))
        sets.append({"cells": [a, b], "welch": welch(a, b)})
    out["near"].append({"name": f"shift 0.95 -> 0.95, ICC {icc}, G = {G} matches of 10 rounds", "base": 0.95, "alt": 0.95, "G": G, "sets": sets})

with open(__file__.replace('.py', '.json'), 'w') as f:
    json.dump(out, f, separators=(',', ':'))
print({k: len(v) for k, v in out.items()})
