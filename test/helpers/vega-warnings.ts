import { loadVega } from '../../src/render/vega-runtime.js';

/** The warnings and errors vega-lite logs while compiling a spec (none for a clean spec). */
export function vegaLiteWarnings(spec: unknown): string[] {
  const { vegaLite } = loadVega();
  const warnings: string[] = [];
  const logger = { level() { return logger; }, warn: (...a: unknown[]) => { warnings.push(a.join(' ')); return logger; }, error: (...a: unknown[]) => { warnings.push(a.join(' ')); return logger; }, info() { return logger; }, debug() { return logger; } };
  vegaLite.compile(spec as never, { logger: logger as never });
  return warnings;
}
