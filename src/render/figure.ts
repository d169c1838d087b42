import type { Config, TopLevelSpec } from 'vega-lite';

/**
 * The figure builder every capability uses: a figure is a plain value — an id (its file stem
 * under figures/), a title and caption for the report, and a Vega-Lite spec built by a pure
 * function from data. `defineFigure` applies the house style (font, sizes, white background)
 * so every figure looks alike and renders with the font the PNG renderer ships.
 *
 * To add figures for a new capability, write chart builders in src/render/charts/<name>.ts that
 * return `defineFigure(...)`, collect them in the analysis's `figures.ts` (a
 * `<capability>Figures(result): Figure[]` function), and hand that list to `figureFiles`
 * (src/render/figure-files.ts) and to a report section (src/render/html.ts). Ids must be unique
 * within one output directory.
 */
export interface Figure {
  /** File stem under figures/: lowercase letters, digits and dashes. */
  readonly id: string;
  /** Heading in the report. */
  readonly title: string;
  /** One paragraph said under the figure in the report. */
  readonly caption: string;
  readonly spec: TopLevelSpec;
}

/** The figure font, named first so the PNG renderer (which knows only this font) matches it. */
export const FONT_FAMILY = 'DejaVu Sans';
/** Browsers without DejaVu Sans fall back to Verdana, which shares its metrics' proportions. */
export const FONT_STACK = `${FONT_FAMILY}, Verdana, sans-serif`;
export const VEGA_LITE_SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';

/** Width of one plotting area in px; figures with two panels use half of it each. */
export const PLOT_WIDTH = 420;

/** Categorical colours (Tableau 10 blue/orange/grey: distinguishable in common colour blindness). */
export const COLORS = { base: '#4c78a8', alt: '#f58518', neutral: '#54575c', accent: '#e45756' } as const;

/** Generous label limits: model and game names are long and must not be cut off. */
export const HOUSE_CONFIG: Config = {
  font: FONT_STACK,
  view: { stroke: '#dddddd' },
  axis: { labelFontSize: 11, titleFontSize: 12, labelLimit: 360, titlePadding: 10, labelColor: '#222222', titleColor: '#222222' },
  header: { labelFontSize: 12, titleFontSize: 12, labelLimit: 360, labelColor: '#222222', titleColor: '#222222' },
  legend: { labelFontSize: 11, titleFontSize: 12, labelLimit: 360, orient: 'bottom', direction: 'horizontal' },
  title: { fontSize: 15, subtitleFontSize: 11.5, anchor: 'start', subtitleColor: '#444444', offset: 12 },
};

/** A figure id or report anchor: lowercase words joined by dashes. */
export const DASHED_ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * A figure in the house style. `spec` is the chart without $schema, background or config;
 * a `config` it does carry is merged over the house one (shallowly, per section).
 */
export function defineFigure(id: string, title: string, caption: string, spec: TopLevelSpec): Figure {
  if (!DASHED_ID.test(id)) throw new RangeError(`figure id must be lowercase words joined by dashes: ${JSON.stringify(id)}`);
  const own = (spec as { config?: Config }).config ?? {};
  const config: Record<string, unknown> = { ...HOUSE_CONFIG };
  for (const [k, v] of Object.entries(own)) {
    const house = config[k];
    config[k] = house && typeof house === 'object' && v && typeof v === 'object' ? { ...house, ...v } : v;
  }
  const styled = { $schema: VEGA_LITE_SCHEMA, background: 'white', padding: 12, ...spec, config } as TopLevelSpec;
  return { id, title, caption, spec: styled };
}

/** Throws on a duplicate id (two figures would overwrite one file). */
export function assertUniqueIds(figures: readonly Figure[]): void {
  const seen = new Set<string>();
  for (const f of figures) {
    if (seen.has(f.id)) throw new Error(`two figures share the id ${f.id}`);
    seen.add(f.id);
  }
}

/** Tooltip number format: three decimals, like the seed's tables. */
/**
 * A layer transform that leaves one row (per facet cell, in a faceted chart): for marks placed by
 * a datum or a value alone (reference rules and their labels), which would otherwise be drawn once
 * per data row, stacked on one another.
 */
export const ONE_ROW = [{ aggregate: [{ op: 'count' as const, as: 'rows' }] }];

export const F3 = '.3f';

/**
 * Pixels a continuous scale keeps free at each end (Vega's scale padding), so that a mark at the domain's end (a rate of 1, R = 1, the
 * last round) is drawn whole inside the plot.
 */
export const MARK_ROOM = 8;

/** One facet row per model, in the given order, the model name as a bold heading above its row. */
export function modelRowFacet(models: readonly string[]) {
  return {
    row: {
      field: 'model', type: 'nominal' as const, sort: [...models],
      header: { title: null, labelAngle: 0, labelOrient: 'top' as const, labelAnchor: 'start' as const, labelFontWeight: 'bold' as const, labelPadding: 4 },
    },
  };
}
