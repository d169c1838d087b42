/** The analysis of repeated play: by round, reactions, the end game, clustered by match, and a match browser. */
export * from './layout.js';
export * from './analysis.js';
export * from './intervals.js';
export * from './tables.js';
export * from './figures.js';
export * from './browser.js';
export * from './report.js';
export * from './files.js';
export * from './framing-table.js';
export * from './terminal.js';
export * from './models.js';
export * from './players.js';
export * from './aggregate-cells.js';

import { analyzeRepeatedCells, analyzeRepeatedPlay, fewNote, repeatedEstimand, thinNote } from './analysis.js';
import { repeatedCells } from './layout.js';
import { aggregateRepeatedCells } from './aggregate-cells.js';
import { cellRows, endGameRows, reactionRows, roundRows } from './tables.js';
import { repeatedFigures } from './figures.js';
import { matchBrowser } from './browser.js';
import { matchBrowserSection, repeatedCellsSection, repeatedModelsSection, repeatedReactionsSection, repeatedSummarySection } from './report.js';
import { modelRows } from './models.js';
import { choosePlayers } from './players.js';
import { REPEATED_FILE_NOTES, repeatedTableFiles } from './files.js';
import { framingTable } from './framing-table.js';
import { cellsText } from './terminal.js';

/**
 * The repeated-play analysis as one object: its cells and estimand (every rate of a cell and the
 * end-game drop on one cluster bootstrap by match), tables, figures, report sections and files.
 */
export const repeated = {
  cells: repeatedCells,
  aggregateCells: aggregateRepeatedCells,
  analyzeCells: analyzeRepeatedCells,
  estimand: repeatedEstimand,
  analyze: analyzeRepeatedPlay,
  players: choosePlayers,
  thinNote,
  fewNote,
  framingTable,
  tables: { models: modelRows, cells: cellRows, rounds: roundRows, reactions: reactionRows, endGame: endGameRows, files: repeatedTableFiles,
    notes: REPEATED_FILE_NOTES },
  figures: repeatedFigures,
  terminal: { cells: cellsText },
  browser: matchBrowser,
  report: { summary: repeatedSummarySection, models: repeatedModelsSection, cells: repeatedCellsSection, reactions: repeatedReactionsSection,
    matches: matchBrowserSection },
} as const;
