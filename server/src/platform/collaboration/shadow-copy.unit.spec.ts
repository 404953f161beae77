import { describe, expect, it } from '@jest/globals';
import * as Y from 'yjs';
import { applyToDocument, applyToShadow } from './shadow-copy.js';

const FROM_CONNECTION = Symbol('connection');

/**
 * The server's pair as `CollabDocument` keeps it: each connection update is tried on the shadow
 * (`applyToShadow`) and then applied to the document (`applyToDocument`); whatever else changes the
 * document (Yjs's own formatting clean-up among it) joins the shadow as an ordinary update. `plain`
 * takes every update with Yjs's `applyUpdate` as it is, as a reference.
 */
function serverPair() {
  const doc = new Y.Doc({ gc: true });
  const shadow = new Y.Doc({ gc: true });
  const plain = new Y.Doc({ gc: true });
  let fromElsewhere = 0;
  doc.on('update', (u: Uint8Array, origin: unknown) => {
    if (origin === FROM_CONNECTION) return;
    fromElsewhere++;
    Y.applyUpdate(shadow, u);
  });
  const receive = (update: Uint8Array) => {
    const { changed } = applyToShadow(shadow, update);
    applyToDocument(doc, update, FROM_CONNECTION);
    Y.applyUpdate(plain, update);
    return changed;
  };
  return { doc, shadow, plain, receive, fromElsewhere: () => fromElsewhere };
}

/** An editor: its own doc, and every update it makes. */
function client(base?: Y.Doc) {
  const doc = new Y.Doc();
  if (base) Y.applyUpdate(doc, Y.encodeStateAsUpdate(base));
  const sent: Uint8Array[] = [];
  doc.on('update', (u: Uint8Array, origin: unknown) => {
    if (origin !== 'server') sent.push(u);
  });
  return { doc, sent };
}

const deltaOf = (doc: Y.Doc) =>
  doc
    .getXmlFragment('default')
    .toArray()
    .map((p) => ((p as Y.XmlElement).firstChild as Y.XmlText).toDelta() as unknown);

describe('the shadow copy and the document (decisions 0078, 0083)', () => {
  it('reads the same text as the document while editors type, delete, format and suggest at once', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const server = serverPair();
    const first = client();
    const paragraph = new Y.XmlElement('paragraph');
    first.doc.getXmlFragment('default').insert(0, [paragraph]);
    paragraph.insert(0, [new Y.XmlText('Sam reads every day and explains his choices.')]);
    for (const u of first.sent.splice(0)) server.receive(u);
    const editors = [0, 1, 2, 3].map(() => client(server.doc));
    for (let round = 0; round < 200; round++) {
      // Each editor makes one change at a random place, without seeing the others' (concurrent).
      editors.forEach((e, i) => {
        const t = (e.doc.getXmlFragment('default').get(0) as Y.XmlElement).firstChild as Y.XmlText;
        const at = Math.floor(random() * t.length);
        const n = Math.min(t.length - at, 1 + Math.floor(random() * 5));
        const what = random();
        if (what < 0.3) t.insert(at, 'xy', i < 2 ? { insertion: { id: `u${i}.s.1` } } : {});
        else if (what < 0.6 && n > 0) t.delete(at, n);
        else t.format(at, n, { bold: random() < 0.5 ? true : null });
      });
      // The server takes them one after the other; every editor then gets everything.
      for (const e of editors) for (const u of e.sent.splice(0)) server.receive(u);
      const all = Y.encodeStateAsUpdate(server.doc);
      for (const e of editors) Y.applyUpdate(e.doc, all, 'server');
      expect(deltaOf(server.shadow)).toEqual(deltaOf(server.doc));
      expect(deltaOf(server.doc)).toEqual(deltaOf(server.plain));
      for (const e of editors) expect(deltaOf(e.doc)).toEqual(deltaOf(server.doc));
    }
    // Yjs cleaned up the document's formatting (concurrent formatting and deletions leave redundant
    // formatting items) and the clean-up reached the shadow: both hold the same items and deletions.
    expect(server.fromElsewhere()).toBeGreaterThan(0);
    expect(Y.equalSnapshots(Y.snapshot(server.shadow), Y.snapshot(server.doc))).toBe(true);
    expect(deltaOf(editors[0]!.doc)).toEqual(deltaOf(server.doc));
  });

  it('returns the types the update changed', () => {
    const server = serverPair();
    const author = client();
    const fragment = author.doc.getXmlFragment('default');
    fragment.insert(0, [new Y.XmlElement('heading'), new Y.XmlElement('paragraph')]);
    const text = new Y.XmlText('one');
    (fragment.get(1) as Y.XmlElement).insert(0, [text]);
    for (const u of author.sent.splice(0)) server.receive(u);

    text.insert(3, ' two');
    const [typed] = author.sent.splice(0);
    const changed = server.receive(typed!);
    const shadowText = (server.shadow.getXmlFragment('default').get(1) as Y.XmlElement).firstChild;
    expect(changed).toEqual([shadowText]);

    fragment.delete(0, 1);
    expect(server.receive(author.sent.splice(0)[0]!)).toEqual([server.shadow.getXmlFragment('default')]);
  });

  it('finds list items by index after changes from elsewhere moved them (search markers dropped)', () => {
    const server = serverPair();
    const author = client();
    const list = author.doc.getArray<Y.Map<number>>('list');
    // One item each (maps are never merged into one item), so Yjs keeps search markers into the list.
    for (let i = 0; i < 200; i++) list.push([new Y.Map([['n', i]])]);
    for (const u of author.sent.splice(0)) server.receive(u);
    const shadowList = server.shadow.getArray<Y.Map<number>>('list');
    expect(shadowList.get(150).get('n')).toBe(150); // reading by index leaves a search marker near 150
    expect(server.doc.getArray<Y.Map<number>>('list').get(150).get('n')).toBe(150);

    const other = client(server.doc);
    other.doc.getArray<Y.Map<number>>('list').insert(
      100,
      [-1, -2, -3].map((n) => new Y.Map([['n', n]])),
    );
    for (const u of other.sent.splice(0)) server.receive(u);
    expect(shadowList.get(150).get('n')).toBe(147);
    expect(server.doc.getArray<Y.Map<number>>('list').get(150).get('n')).toBe(147);
  });

  it('gives the document a new client id when an update uses its own, as Yjs does for a remote change', () => {
    const server = serverPair();
    const own = server.doc.clientID;
    const impostor = new Y.Doc();
    impostor.clientID = own;
    impostor.getXmlFragment('default').insert(0, [new Y.XmlElement('paragraph')]);
    server.receive(Y.encodeStateAsUpdate(impostor));
    expect(server.doc.clientID).not.toBe(own);
    // The server's own edit then cannot reuse a clock the impostor has used: every copy stays equal.
    server.doc.getXmlFragment('default').insert(1, [new Y.XmlElement('heading')]);
    Y.applyUpdate(impostor, Y.encodeStateAsUpdate(server.doc));
    expect(impostor.getXmlFragment('default').length).toBe(2);
    expect(server.doc.getXmlFragment('default').length).toBe(2);
  });
});
