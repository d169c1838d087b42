/** Shared pieces of the repeated-game tests. */
import type { Answer } from './loopback-openai.js';

/** A deterministic answer to an Akata round prompt: the option named first or second, by a hash of the prompt. */
export function optionAnswer(prompt: string): Answer {
  const m = /Which Option do you choose, Option (\S+) or Option (\S+)\?/.exec(prompt);
  let h = 0;
  for (let i = 0; i < prompt.length; i++) h = (h * 31 + prompt.charCodeAt(i)) >>> 0;
  return { text: m ? ` ${m[1 + (h % 3 === 0 ? 1 : 0)]}` : 'none' };
}
