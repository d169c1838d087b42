/** Injected into pipelines so tests can assert on warnings and the CLI can print them. */
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  /** Progress of long work; may redraw one line. */
  progress?(label: string, done: number, total: number): void;
}

export const silentLogger: Logger = { info() {}, warn() {} };

/** Collects messages, for tests. */
export class MemoryLogger implements Logger {
  readonly infos: string[] = [];
  readonly warnings: string[] = [];
  info(m: string): void { this.infos.push(m); }
  warn(m: string): void { this.warnings.push(m); }
}
