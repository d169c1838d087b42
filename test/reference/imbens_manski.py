"""Reference for src/stats/imbens-manski.ts: Imbens and Manski's (2004) critical value c solving
Phi(c + width/sigma) - Phi(-c) = 0.95 (scipy brentq), and the interval [L - c sL, U + c sU] for a
few cells of x cooperative of n valid answers and m invalid ones (bounds' SEs sqrt(b(1-b)/(n+m))).
Writes imbens_manski.json. Run: python3 test/reference/imbens_manski.py"""
import json, math
from scipy.optimize import brentq
from scipy.stats import norm

def crit(width, sigma, level=0.95):
    return brentq(lambda c: norm.cdf(c + width / sigma) - norm.cdf(-c) - level, 0, 10)

out = []
for x, n, m in [(20, 45, 5), (2, 40, 10), (30, 50, 0), (10, 30, 20)]:
    N = n + m
    L, U = x / N, (x + m) / N
    sL, sU = math.sqrt(L * (1 - L) / N), math.sqrt(U * (1 - U) / N)
    c = crit(U - L, max(sL, sU))
    out.append({"x": x, "n": n, "m": m, "c": c, "lo": max(0, L - c * sL), "hi": min(1, U + c * sU)})
with open(__file__.replace('.py', '.json'), 'w') as f:
    json.dump(out, f, indent=1)
print(out)
