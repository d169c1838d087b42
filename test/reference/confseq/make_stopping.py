"""Stopping times of the adaptive rule under the reference betting sequence (make_reference.py's
independent numpy implementation, equal to the confseq package's hedged_cs): for each planned
contrast of the shipped Lorè–Heydari rates (data/lore-heydari-2024/rates.csv), three seeded series
of 300 pairs drawn in lockstep, d = alt − base mapped to (d + 1)/2, looked at every 20 pairs up to
300, stopped for half-width ≤ 0.05 on the shift scale, or (second rule) also when the interval
excludes 0. The TypeScript rule must stop each series at the same look.

Run: python3 test/reference/confseq/make_stopping.py  (writes stopping.json beside it)
"""
import csv
import json
import os

import numpy as np

from make_reference import betting

HERE = os.path.dirname(os.path.abspath(__file__))
RATES = os.path.join(HERE, '..', '..', '..', 'data', 'lore-heydari-2024', 'rates.csv')


def stop_at(lo, hi, half_width, sign, wave=20, max_n=300):
    for n in list(range(wave, max_n + 1, wave)):
        l, h = 2 * lo[n - 1] - 1, 2 * hi[n - 1] - 1
        if (h - l) / 2 <= half_width:
            return n, 'precision', l, h
        if sign and (l > 0 or h < 0):
            return n, 'sign', l, h
    return max_n, 'max_trials', 2 * lo[max_n - 1] - 1, 2 * hi[max_n - 1] - 1


def main():
    with open(RATES) as f:
        rows = list(csv.DictReader(f))
    rate = {(r['model'], r['game'], r['framing']): float(r['rate']) for r in rows}
    contrasts = sorted({(r['model'], r['game']) for r in rows})
    rng = np.random.default_rng(44)
    cases = []
    for model, game in contrasts:
        pb, pa = rate[(model, game, 'business')], rate[(model, game, 'friend-sharing')]
        for k in range(3):
            base = (rng.random(300) < pb).astype(float)
            alt = (rng.random(300) < pa).astype(float)
            d = alt - base
            lo, hi = betting((d + 1) / 2, 0.05)
            for sign in (False, True):
                n, why, l, h = stop_at(lo, hi, 0.05, sign)
                cases.append({'model': model, 'game': game, 'series': k, 'sign': sign, 'd': d.tolist(),
                              'n': n, 'reason': why, 'lo': l, 'hi': h})
    with open(os.path.join(HERE, 'stopping.json'), 'w') as f:
        json.dump({'generator': 'test/reference/confseq/make_stopping.py', 'cases': cases}, f)
        f.write('\n')


if __name__ == '__main__':
    main()
