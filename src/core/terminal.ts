/**
 * Text for a terminal: every control character a terminal would act on — C0 (escape sequences,
 * carriage returns, bells), DEL, C1 (U+009B starts a sequence by itself) and the line and
 * paragraph separators — written as a visible \u{…} escape. Whatever a store, file or server
 * holds, what samegame prints shows it and never drives the terminal. Line ends are kept when
 * `lines` is set (messages of several lines).
 */
const UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/g;
const UNSAFE_WITH_LF = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

export function terminalText(s: string, lines = false): string {
  return s.replace(lines ? UNSAFE : UNSAFE_WITH_LF, (c) => `\\u{${c.charCodeAt(0).toString(16)}}`);
}
