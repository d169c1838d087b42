"""numpy baseline for bench/logs.ts: a FAIRGAME-shaped results file read and Table 3 bootstrapped by match.

Reads the ";"-separated file with the csv module, the agentN_strategies lists with ast.literal_eval,
maps labels to C/D as the fairgame format does (Prisoner's Dilemma: OptionB = C; other games:
OptionA = C), and groups decisions by (model, game with payoff type, language), each match (row) one
cluster holding both agents' rounds. Then B cluster-bootstrap replicates per cell (matches drawn
with replacement, Generator.integers, vectorized), every Table 3 statistic (cell R2, shift, the
conservative transform, per-model and pooled means) per replicate, and their 2.5/97.5 percentiles.
Prints JSON with the median and best wall time of `runs` repetitions of read + bootstrap, measured
inside Python (interpreter start and the numpy import not included).
Usage: python3 bench/numpy_cluster_bootstrap.py FILE B runs base alt
"""
import ast, csv, json, sys, time
from collections import defaultdict
import numpy as np

path, B, runs, base, alt = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
LN2 = np.log(2.0)
COOP = {'prisoner-dilemma': 'OptionB', 'snow-drift': 'OptionA', 'stag-hunt': 'OptionA', 'harmony-game': 'OptionA'}

def read():
    cells = defaultdict(lambda: ([], []))  # key -> (sizes, sums)
    with open(path, newline='') as f:
        for r in csv.DictReader(f, delimiter=';'):
            g = r['game']
            if g not in COOP:
                continue
            game = g if r['payoff_type'] == 'conventional' else f"{g} ({r['payoff_type']})"
            for k in ('1', '2'):
                moves = ast.literal_eval(r[f'agent{k}_strategies'])
                sizes, sums = cells[(r[f'agent{k}_llm'], game, r['language'])]
                if k == '1':
                    sizes.append(0); sums.append(0)
                sizes[-1] += len(moves)
                sums[-1] += sum(1 for m in moves if m == COOP[g])
    return cells

def H(p):
    with np.errstate(divide='ignore', invalid='ignore'):
        return -(np.where(p > 0, p * np.log(p), 0.0) + np.where(p < 1, (1 - p) * np.log1p(-p), 0.0))

def once(seed):
    cells = read()
    rng = np.random.default_rng(seed)
    pairs = sorted({(m, g) for (m, g, _f) in cells})
    models = sorted({m for m, _ in pairs})
    def boot(key):
        sizes, sums = np.array(cells[key][0], dtype=float), np.array(cells[key][1], dtype=float)
        idx = rng.integers(0, len(sizes), size=(B, len(sizes)))
        return sums[idx].sum(axis=1) / sizes[idx].sum(axis=1)
    pb = np.stack([boot((m, g, base)) for m, g in pairs], axis=1)
    ps = np.stack([boot((m, g, alt)) for m, g in pairs], axis=1)
    r2 = 1 - (H((pb + ps) / 2) - (H(pb) + H(ps)) / 2) / LN2
    d = ps - pb
    stats = [r2, d, 1 - 1.0 * (1 - r2), 1.0 * d]
    model_idx = np.array([models.index(m) for m, _ in pairs])
    for mi in range(len(models)):
        sel = model_idx == mi
        r, s = r2[:, sel].mean(axis=1), d[:, sel].mean(axis=1)
        stats += [r[:, None], s[:, None], r[:, None], s[:, None]]
    r, s = r2.mean(axis=1), d.mean(axis=1)
    stats += [r[:, None], s[:, None], r[:, None], s[:, None]]
    return np.percentile(np.concatenate(stats, axis=1), [2.5, 97.5], axis=0)

once(0)
times = []
for i in range(runs):
    t = time.perf_counter(); once(i + 1); times.append(time.perf_counter() - t)
print(json.dumps({'median_s': float(np.median(times)), 'min_s': float(np.min(times)), 'numpy': np.__version__}))
