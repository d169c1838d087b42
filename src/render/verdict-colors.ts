/**
 * One colour per verdict of a reproduction, the same in the report's table and in the figure:
 * blue, orange, red and grey (Tableau's, apart in the common colour blindnesses; the verdict is
 * always written beside the colour in the table, and the figure's legend names it).
 */
export const VERDICT_COLORS: Readonly<Record<string, string>> = {
  exact: '#4c78a8', 'within-mc': '#c45a00', differs: '#b3261e', missing: '#54575c',
};

/** The CSS of the verdict cells: td.v-<verdict> in its colour. */
export const VERDICT_STYLE = Object.entries(VERDICT_COLORS).map(([v, c]) => `td.v-${v} { color: ${c}; font-weight: bold; }`).join('\n');
