/** A name as the messages quote it: JSON-escaped, in double quotes. */
export const q = (s: string): string => JSON.stringify(s);
