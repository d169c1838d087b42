
import { at } from './common.js';


export const metaMsg = {
  manifestField: (file: string, line: number | undefined, field: string, what: string) => at(file, line, field, what),
  effectsColumn: (file: string, line: number, field: string, what: string) => at(file, line, field, what),
};
