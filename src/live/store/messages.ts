/**
 * The user-facing messages used only in live/store/, as functions of plain values (the convention of
 * core/messages/: wording in one place, tests compare with the same text).
 */

export const storeMsg = {
  storeDamaged: (file: string, detail: string) => `${file}: the trial store is damaged or not one samegame wrote (${detail})`,
  storeRefused: (file: string, detail: string) => `${file}: ${detail}`,
  storeUnreadable: (file: string, reason: string) => `${file}: cannot open the trial store (${reason})`,
  notAStore: (file: string) => `${file}: not a samegame trial store (no runs table)`,
  noSuchStore: (file: string) => `${file}: no such trial store`,
  integrityCheckFailed: (file: string, check: string, problems: number, first: string) =>
    (`${file}: the trial store is damaged (${check} found ${problems === 1 ? 'a problem' : `${problems}${problems >= 20 ? '+' : ''} problems`}, ` +
      `first: ${first}); restore it from a copy`),
  storeLocked: (file: string, pid: number, host: string, since: string) =>
    `${file}: another samegame run is writing this store (pid ${pid} on ${host}, since ${since}); wait for it to end or stop it — a store has one writer`,
  storeWalReadOnly: (file: string) =>
    (`${file}: cannot read the trial store: it is in WAL mode without its -wal/-shm files (written by an older samegame) and its folder is not writable; ` +
      `copy it to a writable folder, or run samegame run on it once to return it to one file`),
};
