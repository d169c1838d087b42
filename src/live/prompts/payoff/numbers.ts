/**
 * Numbers written in a story's words (docs/methods.md §18b, the number rule). A number a story
 * writes in digits is a warning — it does not follow the game when the payoffs change, and a
 * number the game does not have may be an incentive the game does not have — except where it is
 * plainly not a payoff:
 *
 * - a percentage (10%, 10 percent, 10 per cent) or a number followed by "%";
 * - a label or an ordinal: after player, round, step, option, day, week, month, year, chapter,
 *   section, table, figure, room, team, group, item, question, part, level, stage, phase, page,
 *   line, number, no., #; or with an ordinal ending (1st, 2nd, 3rd, 4th);
 * - a count of the game's parts: before player(s), round(s), turn(s), time(s), people, person(s),
 *   participant(s), agent(s), option(s), choice(s), action(s), move(s);
 * - a list item's number at the start of a line (1. or 1)), and a number inside a word (GPT4).
 *
 * A number is payoff-shaped when a payoff unit follows it (points, pts, dollars, euros, pounds,
 * cents, coins, tokens, credits, units, years, months) or a currency sign precedes it, or a payoff
 * word (get, receive, earn, win, lose, gain, pay, fine, cost, reward, bonus, penalty, payoff, score,
 * worth …) comes within the three words before it; a number word (one … twenty, thirty … ninety,
 * hundred, thousand) followed by a payoff unit is payoff-shaped too ("three points").
 */

export interface StoryNumber {
  readonly line: number;
  /** The number as written. */
  readonly value: string;
  /** Its value. */
  readonly numeric: number;
  readonly payoffShaped: boolean;
  /** The words around it, for the message. */
  readonly phrase: string;
}

const UNIT = String.raw`(?:points?|pts|dollars?|euros?|pounds?|cents?|coins?|tokens?|credits?|units?|years?|months?)\b`;
const PERCENT = /^\s*(?:%|percent\b|per cent\b)/i;
const LABEL_WORDS = [
  'player', 'round', 'step', 'option', 'day', 'week', 'month', 'year', 'chapter', 'section', 'table', 'figure', 'room', 'team', 'group', 'item',
  'question', 'part', 'level', 'stage', 'phase', 'page', 'line', 'number', 'no\\.',
];
const LABEL_BEFORE = new RegExp(`(?:\\b(?:${LABEL_WORDS.join('|')})|#)\\s*$`, 'i');
const COUNT_AFTER = /^\s*(?:players?|rounds?|turns?|times|people|persons?|participants?|agents?|options?|choices?|actions?|moves?)\b/i;
const PAYOFF_WORDS = [
  'get', 'gets', 'getting', 'receive', 'receives', 'earn', 'earns', 'win', 'wins', 'lose', 'loses', 'gain', 'gains', 'pay', 'pays', 'paid', 'fine', 'fines',
  'fined', 'cost', 'costs', 'reward', 'rewards', 'bonus', 'penalty', 'penalised', 'penalized', 'payoff', 'payout', 'score', 'scores', 'worth', 'extra',
  'additional',
];
const PAYOFF_WORD = new RegExp(`\\b(?:${PAYOFF_WORDS.join('|')})\\b`, 'i');
const WORDS = [
  'zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen',
  'sixteen', 'seventeen', 'eighteen', 'nineteen', 'twenty',
];
const TENS: Readonly<Record<string, number>> = {
  thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90, hundred: 100, thousand: 1000,
};
const NUMBER_WORD = new RegExp(`\\b(?:${[...WORDS, ...Object.keys(TENS)].join('|')})\\b`, 'gi');
const wordValue = (w: string) => { const l = w.toLowerCase(); return WORDS.includes(l) ? WORDS.indexOf(l) : TENS[l]; };

function shaped(before: string, after: string): boolean {
  if (new RegExp(`^\\s*${UNIT}`, 'i').test(after) || /[$€£]\s*$/.test(before)) return true;
  return PAYOFF_WORD.test(before.split(/\s+/).slice(-4).join(' '));
}

/** The number with up to six words before it and three after it (placeholders as …). */
function phraseOf(line: string, at: number, len: number): string {
  const before = line.slice(0, at).split(/\s+/).slice(-7).join(' ');
  const after = line.slice(at + len).split(/\s+/).slice(0, 4).join(' ');
  return `${before}${line.slice(at, at + len)}${after}`.replace(/\u0000/g, '…').replace(/\s+/g, ' ').trim();
}

/** The numbers of one line of a story's literal text (placeholders as NUL) the rule warns of. */
function lineNumbers(text: string, line: number): StoryNumber[] {
  const out: StoryNumber[] = [];
  const body = text.replace(/^\s*\d{1,2}[.)]\s/, (m) => ' '.repeat(m.length));
  for (const m of body.matchAll(/(?<![\p{L}\p{N}.,])\d+(?:[.,]\d+)*(?![\p{L}\p{N}])/gu)) {
    const before = body.slice(0, m.index);
    const after = body.slice(m.index + m[0].length);
    if (PERCENT.test(after) || LABEL_BEFORE.test(before) || COUNT_AFTER.test(after)) continue;
    out.push({ line, value: m[0], numeric: Number(m[0].replace(/,/g, '')), payoffShaped: shaped(before, after), phrase: phraseOf(body, m.index, m[0].length) });
  }
  for (const m of body.matchAll(NUMBER_WORD)) {
    const after = body.slice(m.index + m[0].length);
    if (!new RegExp(`^\\s*${UNIT}`, 'i').test(after)) continue;
    out.push({ line, value: m[0], numeric: wordValue(m[0]), payoffShaped: true, phrase: phraseOf(body, m.index, m[0].length) });
  }
  return out;
}

/** The numbers a story's literal text (placeholders as NUL) states that the rule warns of, line by line. */
export function storyNumbers(literal: string): StoryNumber[] {
  return literal.split('\n').flatMap((t, i) => lineNumbers(t, i + 1));
}
