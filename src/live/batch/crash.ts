/**
 * Crash points for the kill -9 tests of batch runs: when the environment variable
 * SAMEGAME_CRASH_AT names a point, the process SIGKILLs itself there (nothing flushed, nothing
 * cleaned up), as a power cut or an OOM kill would. Points: prepared, uploaded, create-call
 * (the batch exists on the server but its id is not committed), created, collected.
 */
export type CrashPoint = 'prepared' | 'uploaded' | 'create-call' | 'created' | 'collected';

export function crashPoint(point: CrashPoint): void {
  if (process.env.SAMEGAME_CRASH_AT === point) process.kill(process.pid, 'SIGKILL');
}
