

export const runMsg = {
  errorsRecorded: (n: number) => `${n} trials failed after their retries; they are stored with status "error" and will be retried on resume`,
};
