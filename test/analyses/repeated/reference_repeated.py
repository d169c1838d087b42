"""Independent computation of the repeated-play analysis (docs/methods.md, "Repeated play") with numpy.

Reads a decisions CSV (model,game,framing,opponent,match,round,seat,action,opponent_action; an
empty action is an invalid decision) and computes, per cell (model, game, framing, opponent):
cooperation over all rounds, per round, after each previous round (own, other's move in the same
seat's round before; round 1 has none), in the rounds before the last and the end-game drop (last
round minus the rounds before it); then a cluster bootstrap with the match as the cluster: each
replicate draws the cell's m matches with replacement (numpy Generator.integers), counts how often
each match was drawn (bincount) and takes every column's total as counts @ per-match totals (one
matmul); 2.5/97.5 percentiles over the replicates where the rate is defined (nanpercentile).

Usage: python3 reference_repeated.py DECISIONS.csv SEED REPS > out.json
       python3 reference_repeated.py --bench SEED REPS RUNS < DECISIONS.csv   (timing only)
"""
import csv, io, json, sys, time
import numpy as np

PREVIOUS = ['CC', 'CD', 'DC', 'DD']


def read(text):
    rows = list(csv.DictReader(io.StringIO(text)))
    cells, order = {}, []
    for r in rows:
        key = (r['model'], r['game'], r['framing'], r['opponent'])
        if key not in cells:
            cells[key] = {'rows': [], 'matches': {}}
            order.append(key)
        c = cells[key]
        c['rows'].append(r)
        c['matches'].setdefault(r['match'], len(c['matches']))
    return cells, order


def columns(c):
    """Per-match sums and sizes, columns: all, rounds 1..R, CC, CD, DC, DD, before the last."""
    rows = c['rows']
    R = max(int(r['round']) for r in rows)
    m = len(c['matches'])
    W = R + 6
    S = np.zeros((m, W)); N = np.zeros((m, W))
    seat = {(r['match'], r['seat'], int(r['round'])): r for r in rows}
    for r in rows:
        a = r['action']
        if a == '':
            continue
        j = c['matches'][r['match']]; t = int(r['round']); v = 1.0 if a == 'C' else 0.0
        cols = [0, t]
        if t < R:
            cols.append(R + 5)
        p = seat.get((r['match'], r['seat'], t - 1))
        if t > 1 and p is not None and p['action'] != '' and p['opponent_action'] != '':
            cols.append(R + 1 + PREVIOUS.index(p['action'] + p['opponent_action']))
        for k in cols:
            S[j, k] += v; N[j, k] += 1
    return R, S, N


def boot(S, N, R, rng, reps, chunk=1000):
    """Replicates of every column rate and of the drop, shape (reps, W + 1)."""
    m = S.shape[0]
    M = np.concatenate([S, N], axis=1)
    out = []
    for start in range(0, reps, chunk):
        b = min(chunk, reps - start)
        idx = rng.integers(0, m, size=(b, m))
        counts = np.bincount((idx + (np.arange(b) * m)[:, None]).ravel(), minlength=b * m).reshape(b, m).astype(np.float64)
        T = counts @ M
        with np.errstate(invalid='ignore', divide='ignore'):
            rates = T[:, :S.shape[1]] / T[:, S.shape[1]:]
        out.append(np.concatenate([rates, (rates[:, R] - rates[:, R + 5])[:, None]], axis=1))
    return np.concatenate(out, axis=0)


def analyse(cells, order, seed, reps):
    rng = np.random.default_rng(seed)
    result = {'cells': [], 'rounds': [], 'reactions': [], 'endgame': []}
    for key in order:
        R, S, N = columns(cells[key])
        with np.errstate(invalid='ignore', divide='ignore'):
            point = S.sum(0) / N.sum(0)
        reps_ = boot(S, N, R, rng, reps)
        with np.errstate(invalid='ignore'):
            import warnings
            with warnings.catch_warnings():
                warnings.simplefilter('ignore')
                lo, hi = np.nanpercentile(reps_, [2.5, 97.5], axis=0)
                sd = np.nanstd(reps_, axis=0, ddof=1)
        f = lambda x: None if not np.isfinite(x) else float(x)
        k = dict(zip(['model', 'game', 'framing', 'opponent'], key))
        n = N.sum(0)
        result['cells'].append({**k, 'matches': int(S.shape[0]), 'decisions': int(n[0]), 'cooperation': f(point[0]), 'lo': f(lo[0]), 'hi': f(hi[0]), 'sd': f(sd[0])})
        for t in range(1, R + 1):
            if n[t] > 0:
                result['rounds'].append({**k, 'round': t, 'n': int(n[t]), 'cooperation': f(point[t]), 'lo': f(lo[t]), 'hi': f(hi[t]), 'sd': f(sd[t])})
        for i, p in enumerate(PREVIOUS):
            c = R + 1 + i
            result['reactions'].append({**k, 'previous': p, 'n': int(n[c]), 'p_cooperate': f(point[c]), 'lo': f(lo[c]), 'hi': f(hi[c]), 'sd': f(sd[c])})
        W = R + 6
        result['endgame'].append({**k, 'last_round': R, 'cooperation_last': f(point[R]), 'cooperation_before': f(point[R + 5]),
                                  'drop': f(point[R] - point[R + 5]), 'lo': f(lo[W]), 'hi': f(hi[W]), 'sd': f(sd[W])})
    return result


if __name__ == '__main__':
    if sys.argv[1] == '--bench':
        seed, reps, runs = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
        text = sys.stdin.read()
        times = []
        for i in range(runs + 1):
            t = time.perf_counter()
            cells, order = read(text)
            prepared = [columns(cells[k]) for k in order]
            t1 = time.perf_counter()
            rng = np.random.default_rng(seed + i)
            for R, S, N in prepared:
                r = boot(S, N, R, rng, reps)
                with np.errstate(invalid='ignore'):
                    import warnings
                    with warnings.catch_warnings():
                        warnings.simplefilter('ignore')
                        np.nanpercentile(r, [2.5, 97.5], axis=0)
            if i > 0:
                times.append(time.perf_counter() - t1)
        print(json.dumps({'min_s': min(times), 'median_s': float(np.median(times)), 'numpy': np.__version__}))
    else:
        text = open(sys.argv[1]).read()
        cells, order = read(text)
        print(json.dumps(analyse(cells, order, int(sys.argv[2]), int(sys.argv[3])), indent=1))
