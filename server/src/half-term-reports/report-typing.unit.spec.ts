import { describe, expect, it } from '@jest/globals';
import * as Y from 'yjs';
import { checkSuggestOnly, reportContentOf, sectionsUntouchedBy } from '@portal/projections';
import { applyToShadow } from '../platform/collaboration/shadow-copy.js';
import { typedOwnSuggestion } from './report-text-rules.js';

/**
 * Decision 0082: a suggest-only keystroke accepted from what it typed may only be accepted where the
 * full check (`checkSuggestOnly` on the converted texts) says `{ ok: true, resolved: [] }`. Random
 * texts in Yjs, two editors (a suggest-only typist and someone else) making random edits, each
 * update put through the shadow copy as the server does; the texts have no template headings, so
 * the full check runs in full.
 */
const ME = '11111111-1111-4111-8111-111111111111';
const OTHER = '22222222-2222-4222-8222-222222222222';

let seed = 7;
const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;

const ids = [`u${ME}.a.1`, `u${ME}.a.2`, `u${OTHER}.b.1`];
const strings = ['a', 'b', ' ', 'word', '\u200B', 'x y'];

/** Random formatting for typed text (a fresh object: Yjs writes into it); undefined: inherit. */
function attributes(): Record<string, unknown> | undefined {
  const r = random();
  if (r < 0.1) return undefined;
  if (r < 0.45) return { insertion: { id: pick(ids.slice(0, 2)) } };
  if (r < 0.55) return { insertion: { id: pick(ids) }, bold: true };
  if (r < 0.65) return { insertion: { id: pick(ids) } };
  if (r < 0.72) return { deletion: { id: pick(ids) } };
  if (r < 0.78) return { modification: { id: pick(ids) } };
  if (r < 0.85) return { bold: true };
  if (r < 0.9) return { insertion: { id: pick(ids) }, deletion: { id: pick(ids) } };
  return {};
}

const blocksOf = (doc: Y.Doc) => doc.getXmlFragment('default').toArray() as Y.XmlElement[];
const textsOf = (doc: Y.Doc) =>
  blocksOf(doc).flatMap((b) => b.toArray().filter((c): c is Y.XmlText => c instanceof Y.XmlText));

function randomText(doc: Y.Doc): void {
  const root = doc.getXmlFragment('default');
  const n = 1 + Math.floor(random() * 4);
  for (let i = 0; i < n; i++) {
    const block = new Y.XmlElement(random() < 0.2 ? 'heading' : 'paragraph');
    if (block.nodeName === 'heading') block.setAttribute('level', '3');
    const text = new Y.XmlText();
    block.insert(0, [text]);
    if (random() < 0.15) block.insert(1, [new Y.XmlElement('hardBreak'), new Y.XmlText()]);
    root.push([block]);
    const runs = Math.floor(random() * 4);
    for (let r = 0; r < runs; r++) text.insert(text.length, pick(strings), attributes() ?? {});
  }
}

/** A random edit: mostly typing (somewhere, with some formatting), sometimes anything. */
function edit(doc: Y.Doc): void {
  const texts = textsOf(doc);
  const text = pick(texts);
  const r = random();
  const at = Math.floor(random() * (text.length + 1));
  if (r < 0.7 || text.length === 0) {
    const typed = pick(strings);
    const attrs = attributes();
    if (attrs) text.insert(at, typed, attrs);
    else text.insert(at, typed);
  } else if (r < 0.77) {
    // One's own suggestion typed, and the letter that was beside it formatted, in one update.
    text.insert(at, 'z', { insertion: { id: ids[0] } });
    const beside = at > 0 && random() < 0.5 ? at - 1 : at + 1;
    if (beside < text.length) text.format(beside, 1, { bold: true });
  } else if (r < 0.83) text.delete(Math.min(at, text.length - 1), 1);
  else if (r < 0.9) text.format(Math.min(at, text.length - 1), 1, attributes() ?? { bold: null });
  else if (r < 0.95) {
    const p = new Y.XmlElement('paragraph');
    p.insert(0, [new Y.XmlText()]);
    doc.getXmlFragment('default').insert(Math.floor(random() * (blocksOf(doc).length + 1)), [p]);
  } else pick(blocksOf(doc)).setAttribute('textAlign', 'center');
}

function run(rounds: number) {
  const shadow = new Y.Doc();
  randomText(shadow);
  const editors = [ME, OTHER].map(() => {
    const d = new Y.Doc();
    Y.applyUpdate(d, Y.encodeStateAsUpdate(shadow));
    return d;
  });
  let accepted = 0;
  let checked = 0;
  for (let i = 0; i < rounds; i++) {
    const who = random() < 0.7 ? 0 : 1;
    const editor = editors[who]!;
    const sv = Y.encodeStateVector(shadow);
    editor.transact(() => {
      const steps = random() < 0.85 ? 1 : 2;
      for (let s = 0; s < steps; s++) edit(editor);
    });
    const update = Y.encodeStateAsUpdate(editor, sv);
    const before = reportContentOf(shadow);
    const { changed, insertions } = applyToShadow(shadow, update, { insertions: true });
    Y.applyUpdate(editors[1 - who]!, update);
    if (who !== 0) continue;
    checked++;
    const root = shadow.getXmlFragment('default');
    if (!insertions || !sectionsUntouchedBy(changed, shadow) || !typedOwnSuggestion(insertions, ME, root))
      continue;
    accepted++;
    const after = reportContentOf(shadow);
    const full = checkSuggestOnly(before, after, ME);
    if (!full.ok || full.resolved.length > 0)
      throw new Error(
        `accepted from what it typed, but the full check says ${JSON.stringify(full)}:\n` +
          `${JSON.stringify(before)}\n${JSON.stringify(after)}`,
      );
  }
  return { accepted, checked };
}

describe('typedOwnSuggestion (decision 0082)', () => {
  it('says yes only where the full check accepts without resolving anything', () => {
    let accepted = 0;
    let checked = 0;
    for (let t = 0; t < 300; t++) {
      const r = run(40);
      accepted += r.accepted;
      checked += r.checked;
    }
    // Not vacuous: a good share of the typist's keystrokes are accepted from what they typed.
    expect(checked).toBeGreaterThan(7000);
    expect(accepted).toBeGreaterThan(checked * 0.15);
  });

  it('a suggester typing letter after letter at the end of a paragraph is accepted from what it typed', () => {
    const shadow = new Y.Doc();
    const p = new Y.XmlElement('paragraph');
    const next = new Y.XmlElement('paragraph');
    p.insert(0, [new Y.XmlText('Sam reads.')]);
    next.insert(0, [new Y.XmlText('More.')]);
    shadow.getXmlFragment('default').push([p, next]);
    const editor = new Y.Doc();
    Y.applyUpdate(editor, Y.encodeStateAsUpdate(shadow));
    const text = (editor.getXmlFragment('default').get(0) as Y.XmlElement).get(0) as Y.XmlText;
    const verdicts: boolean[] = [];
    for (const ch of ' Well done') {
      const sv = Y.encodeStateVector(shadow);
      text.insert(text.length, ch, { insertion: { id: `u${ME}.n.1` } });
      const { insertions } = applyToShadow(shadow, Y.encodeStateAsUpdate(editor, sv), { insertions: true });
      verdicts.push(typedOwnSuggestion(insertions!, ME, shadow.getXmlFragment('default')));
    }
    expect(verdicts.every(Boolean)).toBe(true);
    // The same keystroke typed plainly (a direct edit), or under someone else's id, is not.
    for (const attrs of [{}, { insertion: { id: `u${OTHER}.n.1` } }]) {
      const sv = Y.encodeStateVector(shadow);
      text.insert(text.length, 'x', attrs);
      const { insertions } = applyToShadow(shadow, Y.encodeStateAsUpdate(editor, sv), { insertions: true });
      expect(typedOwnSuggestion(insertions!, ME, shadow.getXmlFragment('default'))).toBe(false);
    }
  });

  it('not at the end of a paragraph whose next one starts with an insertion suggestion (a join)', () => {
    const shadow = new Y.Doc();
    const p = new Y.XmlElement('paragraph');
    const next = new Y.XmlElement('paragraph');
    const t1 = new Y.XmlText();
    const t2 = new Y.XmlText();
    p.insert(0, [t1]);
    next.insert(0, [t2]);
    shadow.getXmlFragment('default').push([p, next]);
    t1.insert(0, 'Sam reads.', {});
    t2.insert(0, 'New', { insertion: { id: `u${ME}.n.1` } });
    const editor = new Y.Doc();
    Y.applyUpdate(editor, Y.encodeStateAsUpdate(shadow));
    const text = (editor.getXmlFragment('default').get(0) as Y.XmlElement).get(0) as Y.XmlText;
    const sv = Y.encodeStateVector(shadow);
    text.insert(text.length, ' x', { insertion: { id: `u${ME}.n.1` } });
    const before = reportContentOf(shadow);
    const { insertions } = applyToShadow(shadow, Y.encodeStateAsUpdate(editor, sv), { insertions: true });
    expect(typedOwnSuggestion(insertions!, ME, shadow.getXmlFragment('default'))).toBe(false);
    // The full check decides it (rejecting every suggestion would now join the two paragraphs).
    expect(checkSuggestOnly(before, reportContentOf(shadow), ME).ok).toBe(false);
  });
});
