/** Messages of an adaptive repeated game's waves. */
export const adaptiveMsg = {
  matchWaveDone: (wave: number, open: number, stopped: number, matches: number, calls: number, fixedMatches: number, fixedCalls: number) =>
    `wave ${wave}: ${open} open, ${stopped} stopped; ${matches.toLocaleString('en-US')} matches, ${calls.toLocaleString('en-US')} calls so far `
    + `(the fixed design: ${fixedMatches.toLocaleString('en-US')} matches, ${fixedCalls.toLocaleString('en-US')} calls)`,
};
