"""Independent reference for the WebPlotDigitizer pixel maps (docs/methods.md "From a figure").

Not the formulas of src/sources/digitized/calibration.ts: each map is derived here another way.
- Bar axes: the value is linear along the calibration vector e = p2 - p1; numpy least squares
  (np.linalg.lstsq) finds the scalar t with p - p1 ~ t e, and the value is v1 + t (v2 - v1).
- XY axes: A maps the x calibration vector to a pure x change and the y calibration vector to a
  pure y change, so with the basis E = [p2 - p1, p4 - p3], p - p1 = E s gives
  x = xmin + s0 (xmax - xmin), and p - p3 = E u gives y = ymin + u1 (ymax - ymin) (np.linalg.solve).
Log axes work on log10 values. Random images: calibrations at any rotation angle.

Run: python3 test/sources/digitized/pixel_maps_reference.py > test/sources/digitized/pixel_maps_reference.json
"""
import json
import numpy as np

rng = np.random.default_rng(20240626)


def rot(theta):
    return np.array([[np.cos(theta), -np.sin(theta)], [np.sin(theta), np.cos(theta)]])


def bar_case(log):
    theta = rng.uniform(-np.pi, np.pi)
    p1 = rng.uniform(20, 800, 2)
    length = rng.uniform(40, 900)
    p2 = p1 + rot(theta) @ np.array([0.0, -length])
    v1, v2 = (rng.uniform(0.01, 1.0), rng.uniform(1.5, 1000.0)) if log else (rng.uniform(-5, 5), rng.uniform(6, 500))
    if rng.uniform() < 0.5:
        v1, v2 = v2, v1
    pixels = rng.uniform(-200, 1200, (6, 2))
    l1, l2 = (np.log10(v1), np.log10(v2)) if log else (v1, v2)
    e = (p2 - p1).reshape(2, 1)
    out = []
    for p in pixels:
        t = np.linalg.lstsq(e, p - p1, rcond=None)[0][0]
        v = l1 + t * (l2 - l1)
        out.append(float(10 ** v if log else v))
    return {"kind": "bar", "log": log, "calibration": [list(map(float, p1)), list(map(float, p2))],
            "values": [float(v1), float(v2)], "pixels": pixels.tolist(), "expected": out}


def xy_case(log_x, log_y):
    theta = rng.uniform(-np.pi, np.pi)
    shear = rng.uniform(-0.3, 0.3)
    origin = rng.uniform(50, 600, 2)
    basis = rot(theta) @ np.array([[1.0, shear], [0.0, -1.0]]) * rng.uniform(100, 900)
    p1 = origin.copy()
    p2 = p1 + basis[:, 0]
    p3 = origin + basis @ np.array([rng.uniform(-0.2, 0.2), 0.0])
    p4 = p3 + basis[:, 1] * rng.uniform(0.5, 1.5)
    def vals(log):
        return (rng.uniform(0.01, 1.0), rng.uniform(2.0, 1e4)) if log else (rng.uniform(-10, 10), rng.uniform(11, 300))
    xmin, xmax = vals(log_x)
    ymin, ymax = vals(log_y)
    lx = (np.log10(xmin), np.log10(xmax)) if log_x else (xmin, xmax)
    ly = (np.log10(ymin), np.log10(ymax)) if log_y else (ymin, ymax)
    E = np.column_stack([p2 - p1, p4 - p3])
    pixels = rng.uniform(-200, 1200, (6, 2))
    out = []
    for p in pixels:
        s = np.linalg.solve(E, p - p1)
        u = np.linalg.solve(E, p - p3)
        x = lx[0] + s[0] * (lx[1] - lx[0])
        y = ly[0] + u[1] * (ly[1] - ly[0])
        out.append([float(10 ** x if log_x else x), float(10 ** y if log_y else y)])
    return {"kind": "xy", "logX": log_x, "logY": log_y,
            "calibration": [list(map(float, p)) for p in (p1, p2, p3, p4)],
            "values": [float(xmin), float(xmax), float(ymin), float(ymax)], "pixels": pixels.tolist(), "expected": out}


cases = []
for i in range(40):
    cases.append(bar_case(log=i % 2 == 1))
    cases.append(xy_case(log_x=i % 2 == 1, log_y=i % 4 >= 2))
print(json.dumps({"numpy": np.__version__, "cases": cases}, indent=1))
