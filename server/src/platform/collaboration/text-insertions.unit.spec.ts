import { describe, expect, it } from '@jest/globals';
import * as encoding from 'lib0/encoding';
import * as Y from 'yjs';
import { applyToShadow } from './shadow-copy.js';
import { textInsertions, walkCounts, type InsertedRun } from './text-insertions.js';

/**
 * Decision 0082: what an update typed, read on the shadow copy while the update is applied. A server
 * shadow and an editor's doc; each edit's update goes through `applyToShadow` as the server sends it.
 */
function setup(paragraphs: [string, Record<string, unknown>?][][]) {
  const editor = new Y.Doc();
  const root = editor.getXmlFragment('default');
  editor.transact(() => {
    for (const runs of paragraphs) {
      const p = new Y.XmlElement('paragraph');
      const text = new Y.XmlText();
      p.insert(0, [text]);
      root.push([p]);
      for (const [s, attributes] of runs) text.insert(text.length, s, attributes ?? {});
    }
  });
  const shadow = new Y.Doc();
  Y.applyUpdate(shadow, Y.encodeStateAsUpdate(editor));
  const textOf = (doc: Y.Doc, i: number) =>
    (doc.getXmlFragment('default').get(i) as Y.XmlElement).get(0) as Y.XmlText;
  /** Makes the edit in the editor's doc and returns what the shadow says it typed. */
  const edit = (change: (text: (i: number) => Y.XmlText, root: Y.XmlFragment) => void) => {
    const sv = Y.encodeStateVector(shadow);
    change((i) => textOf(editor, i), root);
    const { insertions } = applyToShadow(shadow, Y.encodeStateAsUpdate(editor, sv), { insertions: true });
    return insertions;
  };
  return { editor, shadow, edit, textOf };
}

// A fresh object each time: Yjs adds the attributes it ends to the object it is given.
const mine = () => ({ insertion: { id: 'uME.n.1' } });

describe('textInsertions', () => {
  it('a keystroke at the end of a paragraph: its characters, their formatting, at the end', () => {
    const { edit } = setup([[['Hello', {}]], [['World', { bold: true }]]]);
    const runs = edit((t) => t(1).insert(5, '!', mine()));
    expect(runs).toHaveLength(1);
    expect(runs![0]).toMatchObject({ attributes: mine(), first: false, last: true });
    expect(runs![0]!.text.toString()).toContain('World');
  });

  it('sees each keystroke of a run typed letter after letter (Yjs merges them into one item)', () => {
    const { edit, shadow, textOf } = setup([[['Hello', {}]]]);
    for (const [i, ch] of [...' there'].entries()) {
      const runs = edit((t) => t(0).insert(5 + i, ch, mine()));
      expect(runs?.map((r) => r.attributes)).toEqual([mine()]);
    }
    // Plain typing right after one's own plain text: a new character, though the items merge.
    const plain = edit((t) => t(0).insert(0, 'Oh, ', {}));
    expect(plain?.map((r) => r.attributes)).toEqual([{}]);
    const again = edit((t) => t(0).insert(4, 'w', {}));
    expect(again).toHaveLength(1);
    expect(again![0]).toMatchObject({ attributes: {}, first: false, last: false });
    expect(textOf(shadow, 0).toString()).toContain('Oh, wHello');
  });

  it('typing inside formatted text: the text after it keeps its formatting', () => {
    const { edit, editor, shadow, textOf } = setup([[['bold words', { bold: true }]]]);
    const runs = edit((t) => t(0).insert(4, 'X', mine()));
    expect(runs).toHaveLength(1);
    expect(runs![0]).toMatchObject({ attributes: mine(), first: false, last: false });
    expect(textOf(shadow, 0).toDelta()).toEqual(textOf(editor, 0).toDelta());
  });

  it('at the start of a paragraph: first', () => {
    const { edit } = setup([[['Hello', {}]]]);
    expect(edit((t) => t(0).insert(0, 'A', mine()))?.[0]).toMatchObject({ first: true, last: false });
  });

  it('anything but typing: null', () => {
    const { edit } = setup([[['Hello world', {}]], [['Second', {}]]]);
    expect(edit((t) => t(0).delete(0, 1))).toBeNull(); // deleted a character that was there
    expect(edit((t) => t(0).format(0, 3, { bold: true }))).toBeNull(); // formatted text that was there
    expect(edit((t) => t(1).insert(2, 'x', { deletion: null, bold: true }))).not.toBeNull(); // typing
    // A new paragraph, an attribute on a paragraph, an embed.
    expect(edit((_t, root) => root.push([new Y.XmlElement('paragraph')]))).toBeNull();
    expect(edit((_t, root) => (root.get(0) as Y.XmlElement).setAttribute('textAlign', 'center'))).toBeNull();
    expect(edit((t) => t(0).insertEmbed(0, { image: 'x' }))).toBeNull();
  });

  it('a formatting mark that would change the text after it: null', () => {
    const { edit } = setup([[['plain text', {}]]]);
    // Inserting a bold character with no mark to end the bold would make the rest bold: Yjs ends it,
    // so this is typing; a bare formatting mark inside text that was there is not.
    expect(edit((t) => t(0).insert(5, 'X', { bold: true }))).toHaveLength(1);
    expect(
      edit((t) => {
        // A mark that starts italics up to the end, by formatting after inserting (one transaction).
        t(0).doc!.transact(() => {
          t(0).insert(0, 'Y', {});
          t(0).format(1, 3, { italic: true });
        });
      }),
    ).toBeNull();
  });

  it('reads the same from near the typing as from the start of the text, over random edits (decision 0084)', () => {
    let seed = 11;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
    const marks: (() => Record<string, unknown>)[] = [
      () => ({ insertion: { id: 'uA.s.1' } }),
      () => ({ insertion: { id: 'uB.s.1' } }),
      () => ({ insertion: { id: 'uA.s.1' }, bold: true }),
      () => ({ deletion: { id: 'uB.s.2' } }),
      () => ({ modification: { id: 'uA.s.3' }, italic: true }),
      () => ({ bold: true }),
      () => ({ [`mark${Math.floor(random() * 3)}`]: true }), // keys the text has not had before
      () => ({}),
    ];
    const textsOf = (doc: Y.Doc) =>
      doc
        .getXmlFragment('default')
        .toArray()
        .map((p) => (p as Y.XmlElement).get(0) as Y.XmlText);
    // A production shadow (the walk from near the typing) and one walked from the start every time.
    const near = new Y.Doc();
    const whole = new Y.Doc();
    const first = new Y.Doc();
    first.clientID = 1;
    first.transact(() => {
      for (let i = 0; i < 3; i++) {
        const p = new Y.XmlElement('paragraph');
        const text = new Y.XmlText();
        p.insert(0, [text]);
        first.getXmlFragment('default').push([p]);
        // Few keys at first: the walk back from a keystroke then stops early, and keys come later.
        for (let r = 0; r < 40; r++)
          text.insert(text.length, pick(['a', 'bc', ' ']), pick(marks.slice(0, 2))());
      }
    });
    const base = Y.encodeStateAsUpdate(first);
    const docs = [near, whole, new Y.Doc(), new Y.Doc(), new Y.Doc()];
    for (const d of docs) Y.applyUpdate(d, base);
    const [, , a, b, elsewhere] = docs as [Y.Doc, Y.Doc, Y.Doc, Y.Doc, Y.Doc];
    // Fixed client ids: Yjs orders concurrent insertions by them, so the run is the same every time.
    [a.clientID, b.clientID, elsewhere.clientID] = [101, 202, 303];
    // The first text only ever gets the two suggestion marks (one key, as in the benchmark), so the walk
    // back from a keystroke there stops at the first mark unless it still has to find a character.
    const marksFor = (text: Y.XmlText) =>
      textsOf(text.doc!).indexOf(text) === 0 ? marks.slice(0, 2) : marks;
    const typeAt = (text: Y.XmlText, at: number, given?: Record<string, unknown>) => {
      const attrs = given ?? (random() < 0.15 ? undefined : pick(marksFor(text))());
      const typed = attrs ? pick(['x', 'yz', ' ']) : 'q';
      text.insert(at, typed, attrs);
      return typed.length;
    };
    const edit = (doc: Y.Doc) => {
      const texts = textsOf(doc);
      const text = pick(texts);
      const r = random();
      const at = random() < 0.5 ? text.length : Math.floor(random() * (text.length + 1));
      doc.transact(() => {
        if (r < 0.55 || text.length < 2) typeAt(text, at);
        else if (r < 0.63) {
          typeAt(text, at); // two places in one update
          typeAt(text, Math.floor(random() * (text.length + 1)));
        } else if (r < 0.7) {
          typeAt(text, at);
          typeAt(pick(texts), 0);
        } else if (r < 0.77) {
          typeAt(text, at); // typed and partly taken back in one update
          text.delete(at, 1);
        } else if (r < 0.85) text.format(Math.min(at, text.length - 1), 1, pick(marksFor(text))());
        else if (r < 0.9) text.delete(Math.min(at, text.length - 1), 1);
        else if (r < 0.95) {
          // Typing, and formatting what follows it to the end of the text (no mark closes it).
          const from = Math.min(at + typeAt(text, at) + 1, text.length - 1);
          text.format(from, text.length - from, pick(marksFor(text))());
        } else {
          // The formatting of what was just before a new character changes with it.
          typeAt(text, at);
          if (at > 0) text.format(at - 1, 1, pick(marksFor(text))());
        }
      });
    };
    /** Each editor's updates the other has not had yet (they edit concurrently for a while). */
    const unseen = new Map<Y.Doc, Uint8Array[]>([
      [a, []],
      [b, []],
    ]);
    const shape = (doc: Y.Doc, runs: InsertedRun[] | null | undefined) =>
      runs?.map((r) => ({
        at: textsOf(doc).indexOf(r.text),
        attributes: r.attributes,
        first: r.first,
        last: r.last,
      })) ?? null;
    let crafted = 0;
    /**
     * A bare formatting mark between a character and what follows it, with no mark after to end it: no
     * Yjs editor makes one (the API always ends what it starts), but a client can send one, and it
     * changes the formatting of everything after it. Encoded by hand (Yjs's update format, V1).
     */
    const bareMark = (doc: Y.Doc): Uint8Array | null => {
      const text = pick(textsOf(doc));
      let item = text._start;
      for (
        let skip = Math.floor(random() * text.length);
        item && (skip > 0 || item.deleted);
        item = item.right
      )
        if (!item.deleted) skip--;
      if (!item?.right || !(item.content instanceof Y.ContentString)) return null;
      const e = encoding.createEncoder();
      encoding.writeVarUint(e, 1); // structs of one client
      encoding.writeVarUint(e, 1); // one struct
      encoding.writeVarUint(e, 909);
      encoding.writeVarUint(e, crafted++);
      encoding.writeUint8(e, 6 | 0x80 | 0x40); // a formatting mark, with its left and right origins
      encoding.writeVarUint(e, item.id.client);
      encoding.writeVarUint(e, item.id.clock + item.length - 1);
      encoding.writeVarUint(e, item.right.id.client);
      encoding.writeVarUint(e, item.right.id.clock);
      encoding.writeVarString(e, 'insertion');
      encoding.writeVarString(e, JSON.stringify({ id: 'uC.s.1' }));
      encoding.writeVarUint(e, 0); // no deletions
      return encoding.toUint8Array(e);
    };
    let typed = 0;
    walkCounts.near = 0;
    walkCounts.whole = 0;
    for (let round = 0; round < 1500; round++) {
      if (round % 300 === 150) {
        // From elsewhere, a key the first text has not had, over a stretch of it: typing inside that
        // stretch inherits it, so the walk back from there must know to look for it.
        const sv = Y.encodeStateVector(near);
        const first = textsOf(elsewhere)[0]!;
        first.format(Math.floor((random() * first.length) / 2), Math.ceil(first.length / 3), {
          [`fresh${round}`]: round,
        });
        const u = Y.encodeStateAsUpdate(elsewhere, sv);
        for (const d of [near, whole, a, b]) Y.applyUpdate(d, u);
        continue;
      }
      if (random() < 0.1) {
        // A change from elsewhere (another process, a server edit): applied plainly, as onUpdate does,
        // sometimes with a formatting key no text has had.
        const sv = Y.encodeStateVector(near);
        if (random() < 0.5) edit(elsewhere);
        else typeAt(pick(textsOf(elsewhere).slice(1)), 0, { [`fresh${round}`]: round });
        const u = Y.encodeStateAsUpdate(elsewhere, sv);
        for (const d of [near, whole, a, b]) Y.applyUpdate(d, u);
        continue;
      }
      const editor = random() < 0.5 ? a : b;
      const other = editor === a ? b : a;
      const sv = Y.encodeStateVector(near);
      const bare = random() < 0.05 ? bareMark(near) : null;
      if (bare) Y.applyUpdate(editor, bare);
      else edit(editor);
      const update = bare ?? Y.encodeStateAsUpdate(editor, sv);
      const fromNear = applyToShadow(near, update, { insertions: true }).insertions;
      let fromStart: InsertedRun[] | null = null;
      whole.transact((tr) => {
        Y.applyUpdate(whole, update);
        fromStart = textInsertions(tr, whole, { fullWalk: true });
        tr.local = true; // as applyToShadow takes it (no formatting clean-up): the two copies stay equal
      });
      expect(shape(near, fromNear)).toEqual(shape(whole, fromStart));
      if (fromNear) typed++;
      Y.applyUpdate(elsewhere, update);
      unseen.get(other)!.push(update);
      if (random() < 0.4) for (const u of unseen.get(other)!.splice(0)) Y.applyUpdate(other, u);
      if (random() < 0.4) for (const u of unseen.get(editor)!.splice(0)) Y.applyUpdate(editor, u);
    }
    expect(textsOf(near).map((t) => t.toDelta() as unknown)).toEqual(
      textsOf(whole).map((t) => t.toDelta() as unknown),
    );
    // Not vacuous: most updates were typing, and most walks started near the typing.
    expect(typed).toBeGreaterThan(900);
    expect(crafted).toBeGreaterThan(10);
    expect(walkCounts.near).toBeGreaterThan(walkCounts.whole * 3);
  });
});
