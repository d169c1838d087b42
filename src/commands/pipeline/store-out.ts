/** Where the analysis of a trial store is written by default (analyze; replay compares with it). */
import { basename, dirname, extname, join, resolve } from 'node:path';

/** Default output directory of a store's analysis: runs/x.sqlite → runs/x/. */
export function defaultAnalyzeOut(store: string): string {
  return join(dirname(resolve(store)), basename(store, extname(store)));
}
