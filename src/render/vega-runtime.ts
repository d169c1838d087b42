import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { runInThisContext } from 'node:vm';
import type * as VegaNS from 'vega';
import type * as VegaLiteNS from 'vega-lite';

/**
 * The single-file browser builds of vega, vega-lite and vega-embed from node_modules. The report
 * inlines them (one self-contained HTML file); figure rendering in Node evaluates the same vega
 * and vega-lite builds, which loads in ~40 ms instead of the ~330 ms the ESM package graph of
 * `import 'vega'` takes — that keeps `samegame reproduce` well under a second.
 */
const require = createRequire(import.meta.url);

export interface VegaBundles {
  readonly vega: string;
  readonly vegaLite: string;
  readonly vegaEmbed: string;
}

function buildDir(pkg: string): string {
  // Each package's main entry lives in its build/ folder, next to the minified UMD bundle.
  return dirname(require.resolve(pkg));
}

export function bundlePaths(): { vega: string; vegaLite: string; vegaEmbed: string } {
  return {
    vega: join(buildDir('vega'), 'vega.min.js'),
    vegaLite: join(buildDir('vega-lite'), 'vega-lite.min.js'),
    vegaEmbed: join(buildDir('vega-embed'), 'vega-embed.min.js'),
  };
}

/**
 * vega's expression parser looks keywords up in a plain object (`legalKeywords = { if: 1 }`), so a
 * string literal that names an Object.prototype member ("constructor", "toString", "valueOf" …)
 * parses as an identifier and the view fails ("Operator not defined"). vega-lite writes level names
 * into expressions (sort orders), so a model named "constructor" broke every figure. The table
 * becomes a null-prototype object, in the Node renderer and in the bundle the reports inline.
 */
export function patchVegaBundle(source: string): string {
  const re = /const ([\w$]+)=\{if:1\};/g;
  const found = source.match(re) ?? [];
  if (found.length !== 1) throw new Error(`vega bundle: expected one keyword table, found ${found.length}; update patchVegaBundle`);
  return source.replace(re, (_m, name: string) => `const ${name}=Object.assign(Object.create(null),{if:1});`);
}

let bundles: VegaBundles | undefined;
export function readBundles(): VegaBundles {
  if (!bundles) {
    const p = bundlePaths();
    bundles = {
      vega: patchVegaBundle(readFileSync(p.vega, 'utf8')),
      vegaLite: readFileSync(p.vegaLite, 'utf8'),
      vegaEmbed: readFileSync(p.vegaEmbed, 'utf8'),
    };
  }
  return bundles;
}

/** Evaluate a UMD bundle as a CommonJS module whose `require` serves the given dependencies. */
function evalUmd<T>(file: string, source: string, deps: Record<string, unknown>): T {
  const module = { exports: {} as Record<string, unknown> };
  const fn = runInThisContext(`(function (exports, module, require) {${source}\n})`, { filename: file }) as
    (e: unknown, m: unknown, r: (id: string) => unknown) => void;
  fn(module.exports, module, (id) => {
    if (!(id in deps)) throw new Error(`${file} requires ${id}`);
    return deps[id];
  });
  return module.exports as T;
}

export type Vega = typeof VegaNS;
export type VegaLite = typeof VegaLiteNS;

let runtime: { vega: Vega; vegaLite: VegaLite } | undefined;

/** vega and vega-lite for rendering in Node, loaded once per process. */
export function loadVega(): { vega: Vega; vegaLite: VegaLite } {
  if (!runtime) {
    const p = bundlePaths();
    const b = readBundles();
    const vega = evalUmd<Vega>(p.vega, b.vega, {});
    const vegaLite = evalUmd<VegaLite>(p.vegaLite, b.vegaLite, { vega });
    runtime = { vega, vegaLite };
  }
  return runtime;
}
