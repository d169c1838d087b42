/** Messages of `samegame init`. */
const q = (s: string) => JSON.stringify(s);

export const initMsg = {
  badName: (name: string) => `init: ${q(name)} is not a design name (letters, digits, ".", "_" or "-", starting with a letter or digit)`,
  badKind: (kind: string, known: readonly string[]) => `init: --kind ${q(kind)} is not one of ${known.join(', ')}`,
  exists: (file: string) => `init: ${file} exists already (choose another name, or move it away)`,
  wrote: (file: string, name: string) =>
    `wrote ${file}; next: samegame prompts ${file}, then samegame run ${file}, then samegame analyze runs/${name}.sqlite`,
};
