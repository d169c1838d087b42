/**
 * A message used by one folder lives beside it (its messages.ts); core/messages/ holds the ones
 * several folders use; none is unused (docs/architecture.md, rule 6). Shown failing on a fixture tree.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { misplacedMessages } from './architecture/messages.js';
import { ROOT } from './helpers/cli.js';

describe('messages live beside their one user', () => {
  it('src/ has no unused or misplaced message', () => {
    expect(misplacedMessages(join(ROOT, 'src'))).toEqual([]);
  });
  it('a fixture tree with one of each is named message by message', () => {
    expect(misplacedMessages(join(ROOT, 'test/fixtures/messages'))).toEqual([
      { message: 'a/messages.ts: aMsg.leaked', problem: 'used outside a/ (b): it belongs in core/messages/' },
      { message: 'core/messages/common.ts: msg.onlyA', problem: 'used only in a/: it belongs in a/messages.ts' },
      { message: 'core/messages/common.ts: msg.dead', problem: 'unused' },
    ]);
  });
});
