"""Reference for a moderator that is a large offset plus a tiny spread (x = 100 +- 1e-5): the DerSimonian-Laird
meta-regression by its definitions in 60-digit arithmetic (mpmath), so no digit of the moderator is lost to the offset.
Uncentred in double precision, X'WX kept 5 of the moderator's digits (DL tau2 0.02921 for 0.02933). Run from the
repository root:

    python3 test/reference/meta/make-reference-centred.py

It writes test/reference/meta/reference-centred.json; npm test reads only that file, never Python."""
import csv, json
import mpmath as mp

mp.mp.dps = 60
rows = list(csv.DictReader(open('test/reference/meta/tables/case_wide1_145.csv')))
y = [mp.mpf(r['yi']) for r in rows]; v = [mp.mpf(r['vi']) for r in rows]; x = [mp.mpf(r['x1']) for r in rows]
k, p = len(y), 2
X = mp.matrix([[1, xi] for xi in x])

def fit(t2):
    W = mp.diag([1 / (vi + t2) for vi in v])
    A = (X.T * W * X) ** -1
    b = A * X.T * W * mp.matrix(y)
    r = [y[i] - b[0] - b[1] * x[i] for i in range(k)]
    P = W - W * X * A * X.T * W
    return A, b, mp.fsum(W[i, i] * r[i] ** 2 for i in range(k)), mp.fsum(P[i, i] for i in range(k))

A0, b0, QE, trP = fit(0)
tau2 = max(mp.mpf(0), (QE - (k - p)) / trP)
A, b, _, _ = fit(tau2)
out = {'case_wide1_145.csv/DL': {'b': [float(b[0]), float(b[1])], 'se': [float(mp.sqrt(A[0, 0])), float(mp.sqrt(A[1, 1]))],
       'tau2': float(tau2), 'QE': float(QE), 'QM': float(b[1] ** 2 / A[1, 1])}}
with open('test/reference/meta/reference-centred.json', 'w') as f:
    json.dump(out, f, indent=1)
    f.write('\n')
