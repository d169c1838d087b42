/** Injected into pipelines so tests can assert on warnings and the CLI can print them. */
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  /** Progress of long work; may redraw one line. */
  progress?(label: string, done: number, total: number): void;
  /** What a command prints as its result (the CLI's standard output: a table, a summary); nothing when absent. */
  print?(text: string): void;
}

export const silentLogger: Logger = { info() {}, warn() {} };

/** A progress callback that reports to the logger under `label`, or undefined when it shows no progress. */
export function progressOf(logger: Logger | undefined, label: string): ((done: number, total: number) => void) | undefined {
  return logger?.progress ? (done, total) => logger.progress!(label, done, total) : undefined;
}

/** Collects messages, for tests. */
export class MemoryLogger implements Logger {
  readonly infos: string[] = [];
  readonly warnings: string[] = [];
  /** What the command printed (print), in order. */
  readonly printed: string[] = [];
  info(m: string): void { this.infos.push(m); }
  warn(m: string): void { this.warnings.push(m); }
  print(t: string): void { this.printed.push(t); }
}
