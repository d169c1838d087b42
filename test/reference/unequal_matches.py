"""Independent generator (numpy) of clustered data sets for the cluster-robust coverage tests of
test/stats/unequal-matches.test.ts: beta-binomial matches (a match's rate ~ Beta with mean p and
intra-match correlation ICC, its decisions Binomial(length, rate)), each cell its own matches.
Writes unequal_matches.json: per regime its settings, the true rates and, per data set, each
cell's match lengths and cooperative counts. Run: python3 test/reference/unequal_matches.py"""
import json
import numpy as np

rng = np.random.default_rng(20261202)

def cell(p, icc, lengths):
    a = p * (1 / icc - 1)
    b = (1 - p) * (1 / icc - 1)
    rates = rng.beta(a, b, size=len(lengths))
    return {"sizes": [int(n) for n in lengths], "sums": [int(x) for x in rng.binomial(lengths, rates)]}

def dominant(G):
    # one ~60-round match, the others 1-3 rounds
    return np.concatenate([[60], rng.integers(1, 4, size=G - 1)])

REGIMES = []
for G in (3, 6, 8, 10):
    REGIMES.append({"name": f"shift, one 60-round match + {G - 1} of 1-3 rounds", "kind": "shift", "base": 0.3, "alt": 0.45,
                    "icc": 0.3, "G": G, "lengths": lambda G=G: dominant(G)})
REGIMES.append({"name": "shift, G = 8 matches of 5-15 rounds", "kind": "shift", "base": 0.3, "alt": 0.45, "icc": 0.3, "G": 8,
                "lengths": lambda: rng.integers(5, 16, size=8)})
for p, G in ((0.05, 15), (0.1, 15), (0.05, 50)):
    REGIMES.append({"name": f"rate {p}, ICC 0.6, G = {G} matches of 10 rounds", "kind": "rate", "base": p, "alt": p, "icc": 0.6, "G": G,
                    "lengths": lambda G=G: np.full(G, 10)})

SETS = 300
out = []
for r in REGIMES:
    sets = []
    for _ in range(SETS):
        if r["kind"] == "shift":
            sets.append([cell(r["base"], r["icc"], r["lengths"]()), cell(r["alt"], r["icc"], r["lengths"]())])
        else:
            sets.append([cell(r["base"], r["icc"], r["lengths"]())])
    out.append({k: v for k, v in r.items() if k != "lengths"} | {"sets": sets})
with open(__file__.replace('.py', '.json'), 'w') as f:
    json.dump(out, f, separators=(',', ':'))
print('regimes', len(out), 'sets', SETS)
