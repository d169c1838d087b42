/**
 * The user-facing messages used only in stats/, as functions of plain values (the convention of
 * core/messages/: wording in one place, tests compare with the same text).
 */

export const statsMsg = {
  tooManyReplicates: (stats: number, reps: number, fits: number, bytes: number) =>
    (`the bootstrap would hold ${stats.toLocaleString('en-US')} statistics × ${reps.toLocaleString('en-US')} replicates, above its limit ` +
      `of ${(bytes / 2 ** 30).toFixed(0)} GiB of replicates: use --reps ${fits.toLocaleString('en-US').replace(/,/g, '')} or fewer, or fewer cells`),
};
