import { InvalidArgumentError, type Command } from 'commander';
import { PAPER_WIDTH_PT, type FigureStyle } from '../render/paper-style.js';
import { UserError } from '../core/errors.js';

export interface FigureFlags { figureStyle?: 'default' | 'paper'; figureWidth?: number; figureFont?: 'serif' | 'sans' }

const oneOf = <T extends string>(flag: string, values: readonly T[]) => (v: string): T => {
  if (!(values as readonly string[]).includes(v)) throw new InvalidArgumentError(`${flag}: ${JSON.stringify(v)} is not one of ${values.join(', ')}`);
  return v as T;
};

function points(v: string): number {
  const n = Number(v);
  if (!/^\s*\d+(\.\d+)?\s*$/.test(v) || !(n >= 72 && n <= 2000)) throw new InvalidArgumentError(
    `--figure-width: ${JSON.stringify(v)} is not a width in points from 72 to 2000`);
  return n;
}

/** --figure-style, --figure-width, --figure-font (render/paper-style.ts). */
export function addFigureFlags(cmd: Command): Command {
  return cmd
    .option('--figure-style <style>',
      ('default, or paper: no title drawn (titles and captions go to figures/captions.md), a width in points, a serif or sans font, a colour-blind-safe ' +
        'palette that stays apart in greyscale'), oneOf('--figure-style', ['default', 'paper'] as const))
    .option('--figure-width <pt>',
      `with --figure-style paper: the figures' width in points (default ${PAPER_WIDTH_PT}, the text width of LaTeX's article class)`, points)
    .option('--figure-font <font>', 'with --figure-style paper: serif (default) or sans', oneOf('--figure-font', ['serif', 'sans'] as const));
}

export interface LatexFlags { latexWidth?: number }

function latexPoints(v: string): number {
  const n = Number(v);
  if (!/^\s*\d+(\.\d+)?\s*$/.test(v) || !(n >= 100 && n <= 1000)) throw new InvalidArgumentError(
    `--latex-width: ${JSON.stringify(v)} is not a text width in points from 100 to 1000`);
  return n;
}

/** --latex-width (render/latex.ts): the text width the .tex tables are laid out for. */
export function addLatexFlag(cmd: Command): Command {
  return cmd.option('--latex-width <pt>', ('the text width in points the .tex tables are laid out for (default 345, a one-column 10 pt article; 240 for ' +
    'a column of a two-column layout: a table that cannot fit it spans both columns, table*)'), latexPoints);
}

/** The figure style of the flags; --figure-width or --figure-font without --figure-style paper is refused in one line. */
export function figureStyleOf(o: FigureFlags): FigureStyle | undefined {
  if (o.figureStyle !== 'paper') {
    if (o.figureWidth !== undefined || o.figureFont !== undefined) throw new UserError(
      '--figure-width and --figure-font apply to --figure-style paper: add it');
    return undefined;
  }
  return { style: 'paper', ...(o.figureWidth !== undefined ? { widthPt: o.figureWidth } : {}), ...(o.figureFont ? { font: o.figureFont } : {}) };
}

/** --names FILE, and (analyze) --players models|all. */
export function addNamesFlags(cmd: Command, players = true): Command {
  cmd.option('--names <file>',
    ('display names: CSV id,name (models, games, framings, opponents) shown in figures, the report, the terminal and LaTeX; CSV and JSON keep the ids and ' +
      'add the names; an id that names nothing in the input is a warning (with the nearest id), not an error'));
  return players ? cmd.option('--players <which>', 'repeated play: models (default: players a log format marks as scripted are opponents only) or all',
    oneOf('--players', ['models', 'all'] as const), 'models') : cmd;
}
