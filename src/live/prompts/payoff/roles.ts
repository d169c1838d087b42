/**
 * Whose action or payoff a stretch of a story's words names (docs/methods.md §18b, the payoff rule):
 * `you` (the player the prompt addresses), `other` (the other player) or `both`. The words are a
 * fixed list, stated in the rule: second person (you, your …), the other player (the other,
 * opponent, partner, counterpart, they, them, their, he, she, and the other player as a story names
 * them: stranger, neighbour, colleague, accomplice, friend …), third-person seats (player 1 / A,
 * the first or row player against player 2 / B, the second or column player), both (both, each,
 * you both, both of you, each of you, "you and the other …"), and names a story declares ("You are
 * Alex", "the other player is Sam").
 */

export type Role = 'you' | 'other' | 'both';

const BOTH = ['you both', 'both of you', 'you each', 'each of you', 'both players', 'each player', 'the two of you', 'you two', 'both', 'each'];
const YOU = ['you', 'your', 'yours', 'yourself', 'player 1', 'player one', 'player a', 'the first player', 'row player'];
const OTHER = [
  'the other', 'other', 'others', 'opponent', 'opponents', 'partner', 'counterpart', 'rival', 'they', 'them', 'their', 'theirs', 'themselves',
  'he', 'she', 'him', 'her', 'his', 'hers', 'player 2', 'player two', 'player b', 'the second player', 'column player',
  // the other player as a story names them ("your neighbour", "the stranger")
  'stranger', 'neighbour', 'neighbor', 'colleague', 'accomplice', 'friend', 'co-worker', 'coworker', 'teammate', 'competitor', 'adversary',
  'associate', 'ally', 'peer', 'roommate', 'classmate',
];
/** Phrases that hold a role word without naming a player: removed before the roles are read. */
const IDIOMS = /\b(?:each other|one another|on the other hand|the other way)\b/g;
/** "you and the stranger", "your neighbour and you": both players. */
const PAIR = /\byou and (?:(?:the|your|a|an) [\p{L}'-]+|they|them|he|she)|\b(?:(?:the|your|a|an) [\p{L}'-]+|they|he|she) and you\b/gu;

/** Names a story declares for the players: "You are Alex", "the other player is Sam". */
export interface DeclaredNames {
  readonly you: readonly string[];
  readonly other: readonly string[];
}

const NAME = "([A-Z][\\p{L}\\p{N}'-]*(?: [A-Z0-9][\\p{L}\\p{N}'-]*)?)";
const YOU_ARE = new RegExp(`\\b[Yy]ou are (?:playing as |playing |called |named )?(?:the )?${NAME}`, 'gu');
const OTHER_IS = new RegExp(`\\b(?:[Tt]he other player|[Yy]our (?:opponent|partner|counterpart)) is (?:called |named )?(?:the )?${NAME}`, 'gu');

/** The player names a story's text declares. */
export function declaredNames(text: string): DeclaredNames {
  const names = (re: RegExp) => [...text.matchAll(re)].map((m) => m[1].toLowerCase()).filter((n) => !/^(?:a|an|the|in|at|on|to)$/.test(n));
  return { you: names(YOU_ARE), other: names(OTHER_IS) };
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The role words as one pattern, longest first (so "player 1" is read before "player"). */
function lexicon(names: DeclaredNames): { re: RegExp; role: Map<string, Role> } {
  const role = new Map<string, Role>();
  for (const [r, words] of [['both', BOTH], ['you', [...YOU, ...names.you]], ['other', [...OTHER, ...names.other]]] as const) {
    for (const w of words) if (!role.has(w)) role.set(w, r);
  }
  const words = [...role.keys()].sort((a, b) => b.length - a.length).map(escape);
  return { re: new RegExp(`(?<![\\p{L}\\p{N}])(?:${words.join('|')})(?:'s)?(?![\\p{L}\\p{N}])`, 'gu'), role };
}

const cache = new Map<string, ReturnType<typeof lexicon>>();

/** Where the words about one placeholder end: punctuation or a connective starts the next. */
const CONNECTIVE = /[,:;]|\b(?:and|then|while|but|when|whereas|if)\b/;

/**
 * The role the words next to a placeholder give it: before it, the last role word after the last
 * connective (, : ; and, then, while, but, when, whereas, if); after it, the first role word
 * before the first connective. Undefined when they name none.
 */
export function roleNear(words: string, names: DeclaredNames, side: 'before' | 'after'): Role | undefined {
  const key = JSON.stringify(names);
  let lex = cache.get(key);
  if (lex === undefined) {
    lex = lexicon(names);
    if (cache.size > 100) cache.clear();
    cache.set(key, lex);
  }
  const text = words.toLowerCase().replace(/’/g, "'").replace(IDIOMS, ' ').replace(PAIR, ' both ');
  const pieces = text.split(CONNECTIVE);
  const near = side === 'before' ? pieces[pieces.length - 1] : pieces[0];
  const roles = [...near.matchAll(lex.re)].map((m) => lex.role.get(m[0].replace(/'s$/, ''))!);
  return side === 'before' ? roles.pop() : roles[0];
}
