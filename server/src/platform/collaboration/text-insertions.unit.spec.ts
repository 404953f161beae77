import { describe, expect, it } from '@jest/globals';
import * as Y from 'yjs';
import { applyToShadow } from './shadow-copy.js';

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
});
