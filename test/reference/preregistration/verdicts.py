"""Independent verdicts of the starter plan (samegame init study; study.plan.yaml) and one more hypothesis
(pooled-negative: shift(pooled) < 0) and an R predicate (pooled-R: R(pooled) > 0.8) on the exported trials.

Reads the per-trial CSV of `samegame export runs/study.sqlite --format csv` (status ok: action C or D),
computes each hypothesis with numpy/scipy from the definitions of docs/methods.md §25 and writes
verdicts.json beside this script:
  shift: mean over pairs of p_alt - p_base, Wald SE sqrt(sum p(1-p)/n)/k, one-sided z against value,
         two-sided (1 - alpha) Wald interval;
  R: mean over pairs of 1 - JSD/ln 2 (JSD = scipy's jensenshannon squared, natural log), SE by the delta method with
         the derivatives taken numerically (central differences of scipy's JSD), one-sided z against value;
  framing-test (every): per model, G = sum over its games of 2 sum O ln(O/E) (scipy's
         chi2_contingency with lambda_="log-likelihood", no correction), chi2 with one df per game;
         the largest p over the models;
  Holm step-down over the three p-values; supported if adjusted p <= alpha, not supported if the
  one-sided p of the opposite direction <= alpha, else inconclusive.
Usage: python3 verdicts.py trials.csv
"""
import csv, json, sys
from collections import defaultdict
import numpy as np
from scipy import stats

ALPHA, BASE, ALT = 0.05, 'strangers', 'neighbours'
HYP = [('pd-shift', 'shift', 'Sim', 'prisoners-dilemma', '>', 0.10), ('pooled-shift', 'shift', 'pooled', None, '>', 0.0),
       ('framing-matters', 'framing-test', 'every', None, None, None), ('pooled-negative', 'shift', 'pooled', None, '<', 0.0),
       ('pooled-R', 'R', 'pooled', None, '>', 0.8)]

cells = defaultdict(lambda: [0, 0])  # (model, game, framing) -> [C, n]
with open(sys.argv[1], newline='') as f:
    for r in csv.DictReader(f):
        if r['status'] != 'ok':
            continue
        c = cells[(r['model'], r['game'], r['framing'])]
        c[0] += r['action'] == 'C'
        c[1] += 1
pairs = [(m, g) for (m, g, fr) in cells if fr == BASE and (m, g, ALT) in cells]

rows, raw_p, against = [], [], []
for hid, est, model, game, cmp, value in HYP:
    ps = [(m, g) for (m, g) in pairs if model in ('pooled', 'every') or m == model]
    ps = [(m, g) for (m, g) in ps if game is None or g == game]
    if est == 'R':
        from scipy.spatial.distance import jensenshannon
        jsd = lambda a, b: jensenshannon([a, 1 - a], [b, 1 - b]) ** 2
        k = len(ps); h = 1e-6; vals = []; var = 0.0
        for m_, g in ps:
            (xb, nb_), (xa, na_) = cells[(m_, g, BASE)], cells[(m_, g, ALT)]
            pb_, pa_ = xb / nb_, xa / na_
            vals.append(1 - jsd(pb_, pa_) / np.log(2))
            db = -(jsd(pb_ + h, pa_) - jsd(pb_ - h, pa_)) / (2 * h) / np.log(2)
            da = -(jsd(pb_, pa_ + h) - jsd(pb_, pa_ - h)) / (2 * h) / np.log(2)
            var += db ** 2 * pb_ * (1 - pb_) / nb_ + da ** 2 * pa_ * (1 - pa_) / na_
        d = float(np.mean(vals)); se = float(np.sqrt(var)) / k
        z = (d - value) / se if cmp == '>' else (value - d) / se
        p = float(stats.norm.sf(z)); opp = float(stats.norm.cdf(z))
        half = float(stats.norm.ppf(1 - ALPHA / 2)) * se
        rows.append({'id': hid, 'statistic': d, 'lo': d - half, 'hi': d + half, 'p': p, 'pairs': k})
    elif est == 'shift':
        k = len(ps)
        pb = np.array([cells[(m, g, BASE)][0] / cells[(m, g, BASE)][1] for m, g in ps])
        pa = np.array([cells[(m, g, ALT)][0] / cells[(m, g, ALT)][1] for m, g in ps])
        nb = np.array([cells[(m, g, BASE)][1] for m, g in ps])
        na = np.array([cells[(m, g, ALT)][1] for m, g in ps])
        d = float(np.mean(pa - pb))
        se = float(np.sqrt(np.sum(pa * (1 - pa) / na + pb * (1 - pb) / nb)) / k)
        z = (d - value) / se if cmp == '>' else (value - d) / se
        p = float(stats.norm.sf(z)); opp = float(stats.norm.cdf(z))
        half = float(stats.norm.ppf(1 - ALPHA / 2)) * se
        rows.append({'id': hid, 'statistic': d, 'lo': d - half, 'hi': d + half, 'p': p, 'pairs': k})
    else:
        worst = None
        for m in sorted({m for m, _ in ps}):
            G = 0.0
            games = [g for mm, g in ps if mm == m]
            for g in games:
                t = np.array([[cells[(m, g, BASE)][0], cells[(m, g, BASE)][1] - cells[(m, g, BASE)][0]],
                              [cells[(m, g, ALT)][0], cells[(m, g, ALT)][1] - cells[(m, g, ALT)][0]]])
                G += stats.chi2_contingency(t, correction=False, lambda_='log-likelihood')[0]
            pm = float(stats.chi2.sf(G, len(games)))
            if worst is None or pm > worst[1]:
                worst = (G, pm)
        p, opp = worst[1], float('nan')
        rows.append({'id': hid, 'statistic': worst[0], 'lo': None, 'hi': None, 'p': p, 'pairs': len(ps)})
    raw_p.append(p); against.append(opp)

order = np.argsort(raw_p, kind='stable'); m = len(raw_p); adj = [0.0] * m; run = 0.0
for j, i in enumerate(order):
    run = max(run, min(1.0, (m - j) * raw_p[i])); adj[i] = run
for r, a, o in zip(rows, adj, against):
    r['p_adjusted'] = a
    r['verdict'] = 'supported' if a <= ALPHA else ('not supported' if o == o and o <= ALPHA else 'inconclusive')
out = {'cells': {'|'.join(k): v for k, v in sorted(cells.items())}, 'verdicts': rows}
json.dump(out, open(__file__.replace('verdicts.py', 'verdicts.json'), 'w'), indent=1)
print(json.dumps(rows, indent=1))
