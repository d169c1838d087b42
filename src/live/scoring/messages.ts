/**
 * The user-facing messages used only in live/scoring/, as functions of plain values (the convention of
 * core/messages/: wording in one place, tests compare with the same text).
 */

export const scoringMsg = {
  parseNone: (labels: readonly string[]) => `names none of the actions ${labels.join(', ')}`,
  parseMultiple: (found: readonly string[]) => `names more than one action (${found.join(', ')})`,
  parseEmpty: () => 'empty response',
};
