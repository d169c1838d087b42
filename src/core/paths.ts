import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join } from 'node:path';

/** The package root, whether running from src/ (tests) or dist/ (the installed binary). */
export const packageRoot = fileURLToPath(new URL('../..', import.meta.url));

/** The shipped reconstructed data of Same Game, Different Story, relative to the package root. */
export const SHIPPED_RATES = 'data/lore-heydari-2024/rates.csv';

let cached: { name: string; version: string } | undefined;
export function toolInfo(): { name: string; version: string } {
  if (!cached) {
    const pkg = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { name: string; version: string };
    cached = { name: pkg.name, version: pkg.version };
  }
  return cached;
}

/**
 * The file URL of a compiled module of this package (`rel` under dist/, e.g. 'render/render.js'),
 * for a worker thread to import, or undefined when there is no build (running from the
 * TypeScript sources without one): the caller then does the work on its own thread.
 */
export function compiledModule(rel: string): string | undefined {
  const js = join(packageRoot, 'dist', rel);
  return existsSync(js) ? pathToFileURL(js).href : undefined;
}
