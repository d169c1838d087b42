import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  barCalibration, barPixel, offAxis, valueAt, valueDirection, xyCalibration, xyData, xyPixel,
  type BarCalibration, type Pixel, type XYCalibration,
} from '../../../src/sources/digitized/calibration.js';

/**
 * The pixel maps against an independent implementation: test/sources/digitized/pixel_maps_reference.py
 * derives each map another way (least squares along the bar axis; a basis decomposition for XY)
 * in numpy, on random calibrations at any rotation, linear and log; its output is the fixture.
 */
const HERE = join(import.meta.dirname);
const FIXTURE = join(HERE, 'pixel_maps_reference.json');
interface Case {
  kind: 'bar' | 'xy'; log?: boolean; logX?: boolean; logY?: boolean;
  calibration: number[][]; values: number[]; pixels: number[][]; expected: (number | number[])[];
}
const px = (p: number[]): Pixel => ({ x: p[0], y: p[1] });
const close = (a: number, b: number, rel = 1e-9) => Math.abs(a - b) <= rel * Math.max(1, Math.abs(b));

function calibrate(c: Case): BarCalibration | XYCalibration {
  const cal = c.kind === 'bar'
    ? barCalibration(px(c.calibration[0]), px(c.calibration[1]), c.values[0], c.values[1], c.log!)
    : xyCalibration(c.calibration.map(px) as [Pixel, Pixel, Pixel, Pixel],
      { xmin: c.values[0], xmax: c.values[1], ymin: c.values[2], ymax: c.values[3] }, c.logX!, c.logY!, false);
  if (typeof cal === 'string') throw new Error(cal);
  return cal;
}

describe('pixel maps: the numpy reference', () => {
  const fixture = JSON.parse(readFileSync(FIXTURE, 'utf8')) as { cases: Case[] };
  it('every recomputed value equals the reference (80 calibrations, 6 pixels each)', () => {
    expect(fixture.cases).toHaveLength(80);
    let n = 0;
    for (const c of fixture.cases) {
      const cal = calibrate(c);
      c.pixels.forEach((p, i) => {
        if (cal.kind === 'bar') expect(close(valueAt(cal, px(p)), c.expected[i] as number)).toBe(true);
        else {
          const d = xyData(cal, px(p));
          const [x, y] = c.expected[i] as number[];
          expect(close(d.x, x, 1e-8) && close(d.y, y, 1e-8)).toBe(true);
        }
        n++;
      });
    }
    expect(n).toBe(480);
  });
  it('the fixture is what the script writes (when python3 and numpy are here)', () => {
    let out: string;
    try {
      out = execFileSync('python3', [join(HERE, 'pixel_maps_reference.py')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    } catch {
      return; // no python3 or numpy: the committed fixture stands
    }
    // The same cases, each number equal to the committed one to 1e-12 relative: numpy's last
    // binary digit moves between versions (its trigonometry and BLAS), the fixture's meaning does not.
    expect(sameNumbers(JSON.parse(out).cases, JSON.parse(readFileSync(FIXTURE, 'utf8')).cases)).toBe(true);
  });
});

/** Deep equality of two JSON values where numbers agree to 1e-12 relative (1e-300 absolute). */
function sameNumbers(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') return Math.abs(a - b) <= 1e-12 * Math.max(Math.abs(a), Math.abs(b)) + 1e-300;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => sameNumbers(v, b[i]));
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a).sort(), kb = Object.keys(b).sort();
    return ka.join('\u0000') === kb.join('\u0000') && ka.every((k) => sameNumbers((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
  }
  return a === b;
}

const coord = fc.double({ min: -2000, max: 2000, noNaN: true });
const pixel = fc.record({ x: coord, y: coord });
const angle = fc.double({ min: -Math.PI, max: Math.PI, noNaN: true });
const length = fc.double({ min: 20, max: 3000, noNaN: true });
const rotate = (p: Pixel, a: number, l: number): Pixel => ({ x: p.x + l * Math.sin(a), y: p.y - l * Math.cos(a) });

/** Random bar calibrations: any origin, angle (rotated images) and length; linear or log values. */
const barCal = fc.record({ p1: pixel, a: angle, l: length, log: fc.boolean(), v1: fc.double({ min: 0.001, max: 10, noNaN: true }), k: fc.double({ min: 1.01, max: 1000, noNaN: true }), swap: fc.boolean() })
  .map(({ p1, a, l, log, v1, k, swap }) => {
    const [u, w] = swap ? [v1 * k, v1] : [v1, v1 * k];
    return barCalibration(p1, rotate(p1, a, l), u, w, log) as BarCalibration;
  });

/** Random XY calibrations: a rotated, sheared frame, axes of any lengths; each axis linear or log; with or without noRotation. */
const xyCal = fc.record({
  o: pixel, a: angle, lx: length, ly: length, shear: fc.double({ min: -0.5, max: 0.5, noNaN: true }),
  logX: fc.boolean(), logY: fc.boolean(), noRotation: fc.boolean(),
  x0: fc.double({ min: 0.01, max: 5, noNaN: true }), y0: fc.double({ min: 0.01, max: 5, noNaN: true }),
  kx: fc.double({ min: 1.5, max: 1000, noNaN: true }), ky: fc.double({ min: 1.5, max: 1000, noNaN: true }),
}).map(({ o, a, lx, ly, shear, logX, logY, noRotation, x0, y0, kx, ky }) => {
  const ex = { x: lx * Math.cos(a), y: lx * Math.sin(a) };
  const ey = { x: ly * (Math.sin(a) + shear * Math.cos(a)), y: -ly * (Math.cos(a) - shear * Math.sin(a)) };
  const p: [Pixel, Pixel, Pixel, Pixel] = [o, { x: o.x + ex.x, y: o.y + ex.y }, o, { x: o.x + ey.x, y: o.y + ey.y }];
  return xyCalibration(p, { xmin: x0, xmax: x0 * kx, ymin: y0, ymax: y0 * ky }, logX, logY, noRotation) as XYCalibration;
});

/** A pixel near a bar axis: s axis lengths from click 1 along it (−2 … 3), `off` px across it (values stay finite on log axes). */
const nearBar = (cal: BarCalibration) => fc.record({ s: fc.double({ min: -2, max: 3, noNaN: true }), off: coord }).map(({ s, off }) => {
  const dx = cal.p2.x - cal.p1.x, dy = cal.p2.y - cal.p1.y, len = Math.hypot(dx, dy);
  return { x: cal.p1.x + s * dx - (off * dy) / len, y: cal.p1.y + s * dy + (off * dx) / len };
});
const barAndPixel = barCal.chain((cal) => fc.tuple(fc.constant(cal), nearBar(cal)));

describe('pixel maps: properties (fast-check)', () => {
  it('bar: the clicks read their own values, and inverting (value, distance off the axis) returns the pixel', () => {
    fc.assert(fc.property(barAndPixel, ([cal, p]) => {
      const back = barPixel(cal, valueAt(cal, p), offAxis(cal, p));
      const v = (x: number) => (cal.log ? 10 ** x : x);
      return close(valueAt(cal, cal.p1), v(cal.v1)) && close(valueAt(cal, cal.p2), v(cal.v2))
        && Math.hypot(back.x - p.x, back.y - p.y) <= 1e-6 * Math.max(1, Math.hypot(p.x - cal.p1.x, p.y - cal.p1.y));
    }), { numRuns: 300 });
  });
  it('bar: moving along the axis by d px changes t by d over the axis length; across it changes nothing', () => {
    fc.assert(fc.property(barAndPixel, fc.double({ min: -50, max: 50, noNaN: true }), ([cal, p], d) => {
      const u = valueDirection(cal);
      const lin = (q: Pixel) => (cal.log ? Math.log10(valueAt(cal, q)) : valueAt(cal, q));
      const len = Math.hypot(cal.p2.x - cal.p1.x, cal.p2.y - cal.p1.y);
      const along = lin({ x: p.x + d * u.x, y: p.y + d * u.y }) - lin(p);
      const across = lin({ x: p.x - d * u.y, y: p.y + d * u.x }) - lin(p);
      const scale = Math.abs(cal.v2 - cal.v1) * (1 + Math.hypot(p.x - cal.p1.x, p.y - cal.p1.y) / len);
      return Math.abs(along - (d / len) * (cal.v2 - cal.v1)) <= 1e-9 * scale && Math.abs(across) <= 1e-9 * scale;
    }), { numRuns: 300 });
  });
  it('xy: inverting returns the pixel; the clicks read their values; moving along the value direction keeps x', () => {
    fc.assert(fc.property(xyCal, pixel, fc.double({ min: -50, max: 50, noNaN: true }), (cal, p, d) => {
      const data = xyData(cal, p);
      // Far outside a short log axis the data leave floating point (overflow, or underflow to a
      // subnormal or 0, where the inverse cannot find the pixel): such pixels are not drawn on figures.
      const inRange = (v: number, log: boolean) => Number.isFinite(v) && (log ? v > 1e-50 && v < 1e50 : Math.abs(v) < 1e50);
      fc.pre(inRange(data.x, cal.logX) && inRange(data.y, cal.logY));
      const back = xyPixel(cal, data);
      const u = valueDirection(cal);
      const moved = xyData(cal, { x: p.x + d * u.x, y: p.y + d * u.y });
      const relx = (a: number, b: number) => (cal.logX ? Math.abs(Math.log10(a) - Math.log10(b)) : Math.abs(a - b)) <= 1e-7 * Math.max(1, Math.abs(cal.logX ? Math.log10(b) : b));
      return Math.hypot(back.x - p.x, back.y - p.y) <= 1e-6 * Math.max(1, Math.hypot(p.x, p.y)) && relx(moved.x, data.x);
    }), { numRuns: 300 });
  });
  it('refuses equal clicks, equal values, non-positive log values and parallel axes', () => {
    const o = { x: 10, y: 10 };
    expect(barCalibration(o, o, 0, 1, false)).toBe('equal-points');
    expect(barCalibration(o, { x: 10, y: 0 }, 0.5, 0.5, false)).toBe('equal-values');
    expect(barCalibration(o, { x: 10, y: 0 }, 0, 1, true)).toBe('log-nonpositive');
    const q = { x: 100, y: 10 };
    expect(xyCalibration([o, q, o, { x: 200, y: 10 }], { xmin: 0, xmax: 1, ymin: 0, ymax: 1 }, false, false, false)).toBe('singular');
    expect(xyCalibration([o, q, o, o], { xmin: 0, xmax: 1, ymin: 0, ymax: 1 }, false, false, false)).toBe('equal-points');
  });
});
