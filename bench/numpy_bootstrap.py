"""numpy baseline for bench/bootstrap.ts: the Same Game, Different Story Table 3 workload, vectorized.

24 binary cells (3 models × 4 games × 2 framings), B replicates drawn with Generator.binomial, every
statistic (cell R2, shift, conservative transform, per-model and pooled means) recomputed per
replicate and its 2.5/97.5 percentiles taken (linear interpolation). Prints JSON with the median
and best wall time of `runs` repetitions measured inside Python (interpreter start not included).
Usage: python3 bench/numpy_bootstrap.py B runs < cells.json   (cells: [[model, game, n, x_base, x_alt], ...])
"""
import json, sys, time
import numpy as np

B, runs = int(sys.argv[1]), int(sys.argv[2])
cells = json.load(sys.stdin)
models = list(dict.fromkeys(c[0] for c in cells))
n = np.array([c[2] for c in cells], dtype=np.int64)
xb = np.array([c[3] for c in cells]); xs = np.array([c[4] for c in cells])
model_idx = np.array([models.index(c[0]) for c in cells])
LN2 = np.log(2.0)

def H(p):
    with np.errstate(divide='ignore', invalid='ignore'):
        return -(np.where(p > 0, p * np.log(p), 0.0) + np.where(p < 1, (1 - p) * np.log1p(-p), 0.0))

def once(seed):
    rng = np.random.default_rng(seed)
    pb = rng.binomial(n, xb / n, size=(B, len(cells))) / n
    ps = rng.binomial(n, xs / n, size=(B, len(cells))) / n
    r2 = 1 - (H((pb + ps) / 2) - (H(pb) + H(ps)) / 2) / LN2
    d = ps - pb
    stats = [r2, d, 1 - 0.7 * (1 - r2), 0.7 * d]
    for m in range(len(models)):
        sel = model_idx == m
        r, s = r2[:, sel].mean(axis=1), d[:, sel].mean(axis=1)
        stats += [r[:, None], s[:, None], (1 - 0.7 * (1 - r))[:, None], (0.7 * s)[:, None]]
    r, s = r2.mean(axis=1), d.mean(axis=1)
    stats += [r[:, None], s[:, None], (1 - 0.7 * (1 - r))[:, None], (0.7 * s)[:, None]]
    allstats = np.concatenate(stats, axis=1)
    return np.percentile(allstats, [2.5, 97.5], axis=0)

once(0)
times = []
for i in range(runs):
    t = time.perf_counter(); once(i + 1); times.append(time.perf_counter() - t)
print(json.dumps({'median_s': float(np.median(times)), 'min_s': float(np.min(times)), 'draws': int(B * 2 * len(cells)), 'numpy': np.__version__}))
