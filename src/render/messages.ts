/**
 * The user-facing messages used only in render/, as functions of plain values (the convention of
 * core/messages/: wording in one place, tests compare with the same text).
 */

export const renderMsg = {
  figureWarning: (id: string, warning: string) => `figure ${id}: ${warning}`,
};
