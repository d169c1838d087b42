/** User-facing messages of the figures and the HTML report (`samegame report`, `reproduce`). */
export const reportMsg = {
  wroteReport: (path: string) => `wrote ${path}`,
  reportSummary: (figures: number) => `report: ${figures} interactive figures, self-contained (opens offline from file://)`,
  figureWarning: (id: string, warning: string) => `figure ${id}: ${warning}`,
};
