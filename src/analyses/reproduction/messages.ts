/**
 * The user-facing messages used only in analyses/reproduction/, as functions of plain values (the convention of
 * core/messages/: wording in one place, tests compare with the same text).
 */

export const analysesReproductionMsg = {
  bcaNotComputed: (where: string) =>
    `${where} names BCa intervals: run with --interval bca so the published BCa endpoints are compared with BCa ones`,
};
