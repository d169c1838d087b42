"""Independent "publications" of Table 3 for test/analyses/reproduction/false-alarms.test.ts.

Each publication is what another implementation would print for the same data: numpy, not
samegame's code; a binomial bootstrap of B = 10,000 replicates drawn with numpy's
Generator.binomial from its own seed; percentile intervals by np.percentile (linear
interpolation); Table 3 (conservative R and action shift per model and pooled, attenuation 0.70)
printed at 3 decimals. Every number of every publication is correct: the only differences from
samegame's run are Monte Carlo error and rounding, so a correct verdict rule calls none of them
`differs` (apart from its family-wise false-alarm level).

Data sets:
  lattice  test/fixtures/rates/lattice-120.csv: 4 models x 4 games x 5 framings, n = 120 per cell,
           several counts near 0 or n (counts given).
  shipped  data/lore-heydari-2024/rates.csv: the 24 shipped cells, n = 300, counts reconstructed
           from the printed rates as round(rate * n), halves up.

Definitions (docs/methods.md): JSD with natural logs, R2 = 1 - JSD / ln 2 of the two framings'
Bernoulli distributions, shift = p_alt - p_base; per model and pooled, unweighted means over
model-games; conservative R = 1 - a (1 - mean R2), shift = a * mean shift, a = 0.70.

Usage: python3 test/reference/publications.py [PUBLICATIONS] > test/reference/publications.json
(default 50 publications per data set; seeds 1000 + i for the lattice set, 2000 + i for the
shipped one). With a second argument B, the publications use B replicates and the seeds start at
1000 + B and 2000 + B: `python3 test/reference/publications.py 100 1000 >
test/reference/publications-1000.json` (publications made with 1,000 replicates, compared with no
`reps` stated: docs/methods.md §16). The JSON lists, per data set, every publication's 30 or 24 printed numbers.
"""
import csv, json, sys
from decimal import Decimal, ROUND_HALF_UP
import numpy as np

ROOT = __file__.rsplit('/test/reference/', 1)[0]
B = int(sys.argv[2]) if len(sys.argv) > 2 else 10_000
A = 0.70
BASE, ALT = 'business', 'friend-sharing'
COUNT = int(sys.argv[1]) if len(sys.argv) > 1 else 50


def read_cells(path):
    """(model, game) -> (n, x_base, x_alt), in file order; models in file order."""
    rows = list(csv.DictReader(open(path, newline='')))
    cells = {}
    for r in rows:
        n = int(r['n'])
        if r.get('cooperate', '') != '':
            x = int(r['cooperate'])
        else:
            x = int((Decimal(r['rate']) * n).quantize(Decimal(1), rounding=ROUND_HALF_UP))
        cells[(r['model'], r['game'], r['framing'])] = (n, x)
    pairs = list(dict.fromkeys((m, g) for (m, g, f) in cells))
    models = list(dict.fromkeys(m for (m, g) in pairs))
    return pairs, models, cells


def H(p):
    with np.errstate(divide='ignore', invalid='ignore'):
        a = np.where(p > 0, -p * np.log(np.where(p > 0, p, 1)), 0.0)
        b = np.where(p < 1, -(1 - p) * np.log(np.where(p < 1, 1 - p, 1)), 0.0)
    return a + b


def table3(pb, pa, pairs, models):
    """pb, pa: arrays (..., pairs) of base and alt rates -> {(group, stat): array (...)}."""
    jsd = np.maximum(H((pb + pa) / 2) - (H(pb) + H(pa)) / 2, 0.0)
    r2 = 1 - jsd / np.log(2)
    sh = pa - pb
    out = {}
    for grp in models + ['Pooled']:
        cols = [i for i, (m, g) in enumerate(pairs) if grp == 'Pooled' or m == grp]
        out[(grp, 'R')] = 1 - A * (1 - r2[..., cols].mean(axis=-1))
        out[(grp, 'shift')] = A * sh[..., cols].mean(axis=-1)
    return out


def publications(path, first_seed):
    pairs, models, cells = read_cells(path)
    n_b = np.array([cells[(m, g, BASE)][0] for m, g in pairs])
    x_b = np.array([cells[(m, g, BASE)][1] for m, g in pairs])
    n_a = np.array([cells[(m, g, ALT)][0] for m, g in pairs])
    x_a = np.array([cells[(m, g, ALT)][1] for m, g in pairs])
    point = table3(x_b / n_b, x_a / n_a, pairs, models)
    pubs = []
    for i in range(COUNT):
        seed = first_seed + i
        rng = np.random.default_rng(seed)
        db = rng.binomial(n_b, x_b / n_b, size=(B, len(pairs))) / n_b
        da = rng.binomial(n_a, x_a / n_a, size=(B, len(pairs))) / n_a
        reps = table3(db, da, pairs, models)
        rows = []
        for grp in models + ['Pooled']:
            for kind in ('R', 'shift'):
                lo, hi = np.percentile(reps[(grp, kind)], [2.5, 97.5])
                for suffix, v in (('', point[(grp, kind)]), ('_lo', lo), ('_hi', hi)):
                    rows.append([grp, kind + suffix, f'{float(v):.3f}'])
        pubs.append({'seed': seed, 'rows': rows})
    return pubs


out = {
    'numpy': np.__version__, 'reps': B, 'attenuation': A, 'base': BASE, 'alt': ALT, 'decimals': 3,
    'datasets': {
        'lattice': {'rates': 'test/fixtures/rates/lattice-120.csv', 'publications': publications(f'{ROOT}/test/fixtures/rates/lattice-120.csv', 1000 + (B if B != 10_000 else 0))},
        'shipped': {'rates': 'data/lore-heydari-2024/rates.csv', 'publications': publications(f'{ROOT}/data/lore-heydari-2024/rates.csv', 2000 + (B if B != 10_000 else 0))},
    },
}
json.dump(out, sys.stdout, indent=None, separators=(',', ':'))
sys.stdout.write('\n')
