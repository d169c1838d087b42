/**
 * The user-facing messages used only in analyses/repeated/, as functions of plain values (the convention of
 * core/messages/: wording in one place, tests compare with the same text).
 */

export const repeatedMsg = {
  thinIntervals: (statistics: number, cells: number, total: number, min: number) =>
    (`${statistics} statistic${statistics === 1 ? '' : 's'} without an interval (lo, hi empty): ${statistics === 1 ? 'its' : 'their'} decisions come from ` +
      `fewer than ${min} matches, too few for any interval to hold its level (the tables show the value of those matches); ${cells} of ${total} cells have ` +
      `fewer than ${min} matches`),
  fewMatches: (cells: number, total: number, few: number) =>
    (`few matches: ${cells} of ${total} cells have fewer than ${few} matches, so their intervals rest on G − 1 < ${few - 1} degrees of freedom (flagged in ` +
      `the tables)`),
  fewMatchesFlag: (matches: number, df: number) => (Math.abs(df - (matches - 1)) < 1e-9
    ? `few matches: interval from G − 1 = ${matches - 1} degrees of freedom`
    : `few matches: interval from ${df.toFixed(1)} degrees of freedom (G = ${matches} matches of unequal length; Satterthwaite)`),
  noIntervalDrawn: (what: string, min: number) =>
    `${what} only, no interval drawn: each rests on fewer than ${min} matches, too few for any interval to hold its level`,
  someIntervalsDrawn: (label: string, without: number, total: number, what: string, min: number) =>
    `${label}; ${without} of ${total} ${what} without one (fewer than ${min} matches)`,
  noIntervalFlag: (matches: number, min: number) => `${matches} match${matches === 1 ? '' : 'es'}: no interval (fewer than ${min})`,
};
