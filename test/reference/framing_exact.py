"""Reference for src/stats/framing-exact.ts: the exact conditional p-value P(sum G >= g) of a group
of 2 x 2 tables under equal rates, given each pair's margins (hypergeometric x_b, pairs
independent), by full enumeration of every combination of tables with scipy's hypergeom and the
G statistic 2 * sum O ln(O/E) (scipy.stats.contingency... computed here by hand). Writes
framing_exact.json. Run: python3 test/reference/framing_exact.py"""
import itertools, json, math
from scipy.stats import hypergeom

def g_stat(xb, nb, xs, ns):
    obs = [[xb, nb - xb], [xs, ns - xs]]
    n = nb + ns
    cols = [xb + xs, n - xb - xs]
    rows = [nb, ns]
    g = 0.0
    for i in range(2):
        for j in range(2):
            o = obs[i][j]
            if o > 0:
                g += o * math.log(o * n / (rows[i] * cols[j]))
    return max(0.0, 2 * g)

def exact_p(pairs):
    g_obs = sum(g_stat(*p) for p in pairs)
    supports = []
    for xb, nb, xs, ns in pairs:
        t = xb + xs
        sup = []
        for x in range(max(0, t - ns), min(nb, t) + 1):
            w = hypergeom.pmf(x, nb + ns, nb, t)
            sup.append((g_stat(x, nb, t - x, ns), w))
        supports.append(sup)
    p = 0.0
    for combo in itertools.product(*supports):
        if sum(c[0] for c in combo) >= g_obs * (1 - 1e-12):
            p += math.prod(c[1] for c in combo)
    return g_obs, p

CASES = [
    [(0, 50, 3, 50)],
    [(1, 50, 4, 50)],
    [(0, 20, 2, 30)],
    [(0, 50, 1, 50), (2, 50, 0, 50), (0, 50, 3, 50)],
    [(1, 40, 1, 40), (0, 40, 2, 40), (3, 40, 0, 40), (0, 40, 1, 40)],
    [(0, 50, 2, 50), (1, 50, 3, 50), (0, 50, 0, 50), (2, 50, 5, 50), (1, 50, 0, 50)],
]

out = []
for pairs in CASES:
    g, p = exact_p(pairs)
    out.append({"pairs": [list(q) for q in pairs], "G": g, "p": p})
with open(__file__.replace('.py', '.json'), 'w') as f:
    json.dump(out, f, indent=1)
print(json.dumps(out))
