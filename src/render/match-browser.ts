/**
 * The match browser of a report: pick a cell, see each of its matches round by round (both seats'
 * moves), and a decision's prompt and answer on click. The matches are a JSON data block; the page
 * builds the browser with textContent only (no HTML from data), so every name, prompt and answer
 * is shown as written and none can become markup.
 */

/** One seat's move in one round: its player, its move, and (for a model's decision) prompt and answer. */
export interface BrowserMove {
  readonly player: string;
  /** C, D, or '—' for an invalid or unknown move. */
  readonly action: string;
  readonly prompt?: string;
  readonly answer?: string;
  /** Where a decision read from a file came from (`file:line, written J`), shown on hover. */
  readonly source?: string;
}

export interface BrowserMatch {
  readonly id: string;
  /** Per round: [round, seat 1's move, seat 2's move]. */
  readonly rounds: readonly (readonly [number, BrowserMove, BrowserMove])[];
}

export interface BrowserCell {
  readonly label: string;
  readonly matches: readonly BrowserMatch[];
  /** Matches of the cell left out of the page (beyond the browser's limit). */
  readonly omitted: number;
}

export interface MatchBrowserBlock {
  readonly kind: 'match-browser';
  /** Anchor of the browser: lowercase words joined by dashes. */
  readonly id: string;
  readonly cells: readonly BrowserCell[];
}

export const MATCH_BROWSER_STYLE = `
.match-browser select { font: inherit; margin: 4px 0 10px; max-width: 100%; }
.match-browser .match { border: 1px solid #e3e3e3; border-radius: 4px; margin: 8px 0; padding: 4px 10px; }
.match-browser .match h3 { font-size: 1em; margin: 4px 0; }
.match-browser button.move { font: inherit; border: 1px solid #b9c4d4; background: #f3f6fb; border-radius: 3px; padding: 0 6px; cursor: pointer; }
.match-browser .move-C { color: #1b7f3b; font-weight: bold; }
.match-browser .move-D { color: #b3261e; font-weight: bold; }
.match-browser .decision { background: #f3f4f6; padding: 6px 10px; white-space: pre-wrap; overflow-wrap: anywhere; }
`;

/**
 * The browser's script, the same for every report (inlined once, allowed by its hash). It reads
 * each `.match-browser` element's data block and fills the element; the selected cell's matches
 * are drawn on change, a decision's prompt and answer when its move is clicked.
 */
export const MATCH_BROWSER_SCRIPT = `(function () {
  function el(tag, cls, text) { var e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = text; return e; }
  function show(box, m, round) {
    box.textContent = '';
    box.appendChild(el('strong', null, m.player + ', round ' + round + ': ' + m.action));
    box.appendChild(el('div', 'prompt-label', 'Prompt'));
    box.appendChild(el('pre', 'prompt', m.prompt === undefined ? '(not recorded)' : m.prompt));
    box.appendChild(el('div', 'answer-label', 'Answer'));
    box.appendChild(el('pre', 'answer', m.answer === undefined ? '(not recorded)' : m.answer));
    box.hidden = false;
  }
  function move(m, round, box) {
    var td = el('td');
    var target = m.prompt !== undefined || m.answer !== undefined
      ? el('button', 'move move-' + m.action, m.action) : el('span', 'move move-' + m.action, m.action);
    if (target.tagName === 'BUTTON') { target.type = 'button'; target.addEventListener('click', function () { show(box, m, round); }); }
    if (m.source !== undefined) target.title = m.source;
    td.appendChild(target);
    return td;
  }
  function drawMatch(list, match) {
    var box = el('div', 'match');
    box.setAttribute('data-match', match.id);
    box.appendChild(el('h3', null, 'Match ' + match.id));
    var table = el('table');
    var head = el('tr');
    var first = match.rounds[0];
    [ 'Round', first ? first[1].player + ' (seat 1)' : 'Seat 1', first ? first[2].player + ' (seat 2)' : 'Seat 2' ]
        .forEach(function (t) { head.appendChild(el('th', null, t)); });
    table.appendChild(head);
    var decision = el('div', 'decision');
    decision.hidden = true;
    match.rounds.forEach(function (r) {
      var tr = el('tr');
      tr.appendChild(el('td', 'num', String(r[0])));
      tr.appendChild(move(r[1], r[0], decision));
      tr.appendChild(move(r[2], r[0], decision));
      table.appendChild(tr);
    });
    box.appendChild(table);
    box.appendChild(decision);
    list.appendChild(box);
  }
  document.querySelectorAll('.match-browser').forEach(function (root) {
    var cells = JSON.parse(document.getElementById(root.getAttribute('data-source')).textContent);
    var select = el('select');
    select.setAttribute('aria-label', 'Cell');
    cells.forEach(function (c, i) {
        var o = el('option', null, c.label + ' (' + c.matches.length + (c.matches.length === 1 ? ' match)' : ' matches)'));
        o.value = String(i); select.appendChild(o); });
    var note = el('p', 'omitted');
    var list = el('div', 'matches');
    function draw() {
      var c = cells[Number(select.value)];
      list.textContent = '';
      note.textContent = c && c.omitted ? c.omitted + ' more matches of this cell are not shown (the browser lists the first ' + c.matches.length + ').' : '';
      if (c) c.matches.forEach(function (m) { drawMatch(list, m); });
    }
    select.addEventListener('change', draw);
    root.appendChild(select);
    root.appendChild(note);
    root.appendChild(list);
    draw();
    root.setAttribute('data-ready', 'true');
  });
})();`;
