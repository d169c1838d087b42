import { COLORS, defineFigure, type Figure } from '../figure.js';

/**
 * A bar chart of cooperation rates, one bar per cell, on a 0–1 axis `height` px tall: the kind of
 * published figure rates are read from. samegame draws it from known rates so that digitizing it
 * (WebPlotDigitizer) and reading the project back can be checked against the truth
 * (data/examples/digitized/, docs/methods.md "From a figure").
 */
export interface RateBar { readonly label: string; readonly framing: string; readonly rate: number }

export interface RateBarsOptions {
  /** Height of the value axis in px (the plot area; the PNG doubles it). */
  readonly height: number;
  readonly title: string;
  readonly framings: readonly [string, string];
}

export function rateBarsFigure(id: string, bars: readonly RateBar[], o: RateBarsOptions): Figure {
  return defineFigure(id, o.title, 'Cooperation rate per cell; the bar top is the rate.', {
    title: { text: o.title },
    width: { step: 22 },
    height: o.height,
    data: { values: bars.map((b, i) => ({ ...b, order: i })) },
    mark: { type: 'bar', width: 14 },
    encoding: {
      x: { field: 'label', type: 'nominal', sort: { field: 'order' }, title: null, axis: { labelAngle: -60, labelLimit: 240 } },
      y: { field: 'rate', type: 'quantitative', scale: { domain: [0, 1], nice: false, zero: true }, title: 'Cooperation rate', axis: { tickCount: 5,
        format: '.1f' } },
      color: { field: 'framing', type: 'nominal', title: 'Framing', scale: { domain: [...o.framings], range: [COLORS.base, COLORS.alt] } },
    },
  });
}
