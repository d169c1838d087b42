/** The user-facing messages used only in live/replay/, as functions of plain values. */

export const replayMsg = {
  designHash: () => 'the stored design does not hash to the run\'s design hash',
  noSuchTrial: () => 'no such trial in the stored design',
  differsAt: (i: number, stored: string, now: string) => `differs at character ${i}: stored ${stored}, re-rendered ${now}`,
  readerRefuses: (why: string) => `today's reader refuses the stored response (${why})`,
  decisionChanged: (stored: string, now: string, reason: string | null) => `stored ${stored}, today's parser ${now}${reason ? ` (${reason})` : ''}`,
};
