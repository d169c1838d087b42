"""Independent reference computation for test/reference.test.ts (numpy, not samegame's code).

Computes, for a rates CSV with columns model, game, framing, n, cooperate, the two-framing
statistics (R2, shift, conservative transform), per-model and pooled unrounded means, the family
robustness over all framings, and binomial-bootstrap percentile intervals with numpy's
Generator.binomial. Monte Carlo error of each endpoint is measured over independent seeds so the
test can compare samegame's endpoints within it.

Usage: python3 test/reference/reference.py FILE BASE ALT ATTENUATION > test/reference/FILE.json
"""
import csv, json, sys
import numpy as np

path, base, alt, att = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
rows = list(csv.DictReader(open(path)))
cells = [(r['model'], r['game'], r['framing']) for r in rows]
n = np.array([int(r['n']) for r in rows], dtype=np.int64)
x = np.array([int(r['cooperate']) for r in rows], dtype=np.int64)
idx = {c: i for i, c in enumerate(cells)}
models = list(dict.fromkeys(r['model'] for r in rows))
mgs = list(dict.fromkeys((r['model'], r['game']) for r in rows))
framings = list(dict.fromkeys(r['framing'] for r in rows))

def H(p):
    p = np.asarray(p, dtype=float)
    with np.errstate(divide='ignore', invalid='ignore'):
        a = np.where(p > 0, -p * np.log(np.where(p > 0, p, 1)), 0.0)
        b = np.where(p < 1, -(1 - p) * np.log(np.where(p < 1, 1 - p, 1)), 0.0)
    return a + b

def jsd(p, q):
    return np.maximum(H((p + q) / 2) - (H(p) + H(q)) / 2, 0.0)

def stats(rates):
    """rates: array (..., cells). Returns dict name -> array (...)."""
    out = {}
    r2s, shs = {}, {}
    for (m, g) in mgs:
        pb, ps = rates[..., idx[(m, g, base)]], rates[..., idx[(m, g, alt)]]
        r2s[(m, g)] = 1 - jsd(pb, ps) / np.log(2)
        shs[(m, g)] = ps - pb
        out[f'R2[{m} | {g}]'] = r2s[(m, g)]
        out[f'shift_raw[{m} | {g}]'] = shs[(m, g)]
        fam = [idx[(m, g, f)] for f in framings if (m, g, f) in idx]
        mx = 0
        for i in range(len(fam)):
            for j in range(i + 1, len(fam)):
                mx = np.maximum(mx, jsd(rates[..., fam[i]], rates[..., fam[j]]))
        out[f'Rfam[{m} | {g}]'] = 1 - mx / np.log(2)
    for grp in models + ['Pooled']:
        keys = [k for k in mgs if grp == 'Pooled' or k[0] == grp]
        r = np.mean([r2s[k] for k in keys], axis=0)
        s = np.mean([shs[k] for k in keys], axis=0)
        out[f'R_raw[{grp}]'] = r
        out[f'shift_raw[{grp}]'] = s
        out[f'R[{grp}]'] = 1 - att * (1 - r)
        out[f'shift[{grp}]'] = att * s
        out[f'Rfam[{grp}]'] = np.mean([out[f'Rfam[{k[0]} | {k[1]}]'] for k in keys], axis=0)
    return out

point = {k: float(v) for k, v in stats(x / n).items()}
B = 10000
endpoints = {k: [] for k in point}
for seed in range(20):
    rng = np.random.default_rng(seed)
    draws = rng.binomial(n, x / n, size=(B, len(cells))) / n
    st = stats(draws)
    for k, v in st.items():
        endpoints[k].append(np.percentile(v, [2.5, 97.5]))  # linear interpolation (numpy default)
res = {}
for k in point:
    e = np.array(endpoints[k])
    res[k] = {'point': point[k], 'lo': float(e[:, 0].mean()), 'hi': float(e[:, 1].mean()),
              'lo_sd': float(e[:, 0].std(ddof=1)), 'hi_sd': float(e[:, 1].std(ddof=1))}
json.dump({'source': path, 'base': base, 'alt': alt, 'attenuation': att, 'reps': B, 'seeds': 20,
           'numpy': np.__version__, 'statistics': res}, sys.stdout, indent=1, sort_keys=True)
