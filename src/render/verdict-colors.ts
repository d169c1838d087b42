/**
 * One colour per verdict of a reproduction, the same in the report's table and in the figure, in
 * both figure styles (`--figure-style paper` keeps them): Okabe and Ito's blue, bluish green and
 * vermillion, and grey — apart in the common colour blindnesses, "differs" the one warm colour
 * (the figure also draws it as a larger triangle, VERDICT_SHAPES). The verdict is always written
 * beside the colour in the table, and the figure's legend names it.
 */
export const VERDICT_COLORS: Readonly<Record<string, string>> = {
  exact: '#0072b2', 'within-mc': '#009e73', differs: '#d55e00', missing: '#6b6b6b',
};

/** The figure's mark per verdict: "differs" stands out by shape and size too (the others at exact's size). */
export const VERDICT_SHAPES: Readonly<Record<'exact' | 'within-mc' | 'differs' | 'missing', { shape: string; size: number }>> = {
  exact: { shape: 'circle', size: 50 }, 'within-mc': { shape: 'square', size: 50 },
  differs: { shape: 'triangle-up', size: 130 }, missing: { shape: 'cross', size: 50 },
};

/** The CSS of the verdict cells: td.v-<verdict> in its colour. */
export const VERDICT_STYLE = Object.entries(VERDICT_COLORS).map(([v, c]) => `td.v-${v} { color: ${c}; font-weight: bold; }`).join('\n');
