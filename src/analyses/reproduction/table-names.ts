import type { PublishedTable } from '../../sources/published.js';

/**
 * What the reproduction calls each published table (sources/published.ts PUBLISHED_TABLES): in
 * its tables, CSV labels and LaTeX (`label`), on the figure's axis (`short`), and within a
 * sentence (`inSentence`).
 */
export const TABLE_NAMES: Readonly<Record<PublishedTable, { readonly label: string; readonly short: string; readonly inSentence: string }>> = {
  table2: { label: 'Table 2', short: 'Table 2', inSentence: 'Table 2' },
  table3: { label: 'Table 3', short: 'Table 3', inSentence: 'Table 3' },
  family: { label: 'Family robustness', short: 'Family', inSentence: 'the family table' },
};
