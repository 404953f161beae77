import { describe, expect, it } from '@jest/globals';
import * as Y from 'yjs';
import {
  canonicalJson,
  emptySections,
  factText,
  factsIn,
  factsLine,
  hasWrittenText,
  namesIn,
  sectionLengths,
  reportContentOf,
  reportHashOf,
  sha256Hex,
  writeFacts,
  writeReportTemplate,
  FACT_BLOCK,
  ReportContentCache,
  sectionsUntouchedBy,
  type ChangedType,
  type ReportFact,
} from './report-content.js';
import {
  acceptedOf,
  baselineOf,
  checkSuggestOnly,
  holdsTemplateSections,
  keepsSections,
  suggestionsIn,
} from './report-suggestions.js';

const ID = '11111111-1111-4111-8111-111111111111';

/** A document whose first paragraph says `text`, typed in `pieces` (a different edit history). */
function docWith(pieces: string[], clientID?: number): Y.Doc {
  const doc = new Y.Doc();
  if (clientID !== undefined) doc.clientID = clientID;
  writeReportTemplate(doc);
  const paragraph = doc.getXmlFragment('default').get(1) as Y.XmlElement;
  const text = new Y.XmlText();
  paragraph.insert(0, [text]);
  let at = 0;
  for (const piece of pieces) {
    text.insert(at, piece);
    at += piece.length;
  }
  return doc;
}

describe('report content hash (decision 0057)', () => {
  it('sorts keys at every level and leaves no whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [true, null], c: 'x' } })).toBe(
      '{"a":{"c":"x","d":[true,null]},"b":1}',
    );
    expect(canonicalJson({ a: undefined, b: 'é"' })).toBe('{"b":"é\\""}');
  });

  it('gives the same hash for the same text whatever the history, client or key order', async () => {
    const one = await reportHashOf(ID, docWith(['Ann reads well.']));
    const two = await reportHashOf(ID, docWith(['Ann ', 'reads ', 'well.'], 424242));
    expect(two.hash).toBe(one.hash);
    expect(two.canonical).toBe(one.canonical);
    // The Yjs bytes differ (never hash them).
    expect(Y.encodeStateAsUpdate(docWith(['Ann reads well.']))).not.toEqual(
      Y.encodeStateAsUpdate(docWith(['Ann ', 'reads ', 'well.'])),
    );
  });

  it('survives a reload: the document rebuilt from its update hashes the same', async () => {
    const doc = docWith(['Ann reads well.']);
    const reloaded = new Y.Doc();
    Y.applyUpdate(reloaded, Y.encodeStateAsUpdate(doc));
    expect((await reportHashOf(ID, reloaded)).hash).toBe((await reportHashOf(ID, doc)).hash);
  });

  it('changes with one character, a mark or another report id', async () => {
    const base = await reportHashOf(ID, docWith(['Ann reads well.']));
    expect((await reportHashOf(ID, docWith(['Ann reads well!']))).hash).not.toBe(base.hash);
    const bold = docWith(['Ann reads well.']);
    ((bold.getXmlFragment('default').get(1) as Y.XmlElement).get(0) as Y.XmlText).format(0, 3, { bold: {} });
    expect((await reportHashOf(ID, bold)).hash).not.toBe(base.hash);
    expect(
      (await reportHashOf('22222222-2222-4222-8222-222222222222', docWith(['Ann reads well.']))).hash,
    ).not.toBe(base.hash);
  });

  it('is SHA-256 of the canonical UTF-8 text', async () => {
    expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('writes the template once and reports which sections are still empty', () => {
    const doc = new Y.Doc();
    writeReportTemplate(doc);
    writeReportTemplate(doc);
    const content = reportContentOf(doc);
    expect(content.content?.filter((n) => n.type === 'heading')).toHaveLength(5);
    expect(content.content?.[0]).toEqual({
      type: 'heading',
      attrs: { level: 2 },
      content: [{ type: 'text', text: 'Attendance and engagement' }],
    });
    expect(emptySections(content)).toHaveLength(5);
    expect(emptySections(reportContentOf(docWith(['Ann came every week.'])))).not.toContain(
      'Attendance and engagement',
    );
  });

  it('starts the attendance section with the facts line, which is not the writer’s text', () => {
    const doc = new Y.Doc();
    writeReportTemplate(doc, factsLine(6, 2));
    const content = reportContentOf(doc);
    expect(content.content?.[1]).toEqual({
      type: 'paragraph',
      content: [{ type: 'text', text: 'Lessons in the period: 6 delivered, 2 planned.' }],
    });
    expect(hasWrittenText(content)).toBe(false);
    expect(emptySections(content)).toContain('Attendance and engagement');
    expect(hasWrittenText(reportContentOf(docWith(['Ann came every week.'])))).toBe(true);
  });

  describe('fact blocks (decision 0068)', () => {
    const period = '2026-09-01/2026-10-23';
    const facts = (percent: number, sourcePosition = '10'): ReportFact[] => [
      {
        kind: 'attendance',
        period,
        values: { possible: 10, attended: percent / 10, late: 1, absences: 10 - percent / 10, percent },
        sourcePosition,
      },
      { kind: 'lessons', period, values: { delivered: 9, planned: 3, cancelled: 0 }, sourcePosition },
    ];

    it('sit under the attendance heading, replace the old facts line, and are not the writer’s text', () => {
      const doc = new Y.Doc();
      writeReportTemplate(doc, factsLine(6, 2));
      expect(writeFacts(doc, facts(90))).toBe(true);
      const content = reportContentOf(doc);
      expect(content.content?.slice(0, 4).map((b) => b.type)).toEqual([
        'heading',
        'factBlock',
        'factBlock',
        'paragraph',
      ]);
      expect(factsIn(content).map((f) => factText(f))).toEqual([
        'Attendance: 90% (9 of 10 sessions attended, 1 late, 1 absence).',
        'Lessons in the period: 9 delivered, 3 planned.',
      ]);
      expect(hasWrittenText(content)).toBe(false);
      expect(emptySections(content)).toContain('Attendance and engagement');
    });

    it('are part of the signed text: new figures change the hash, a new source position alone does not', async () => {
      const doc = new Y.Doc();
      writeReportTemplate(doc);
      writeFacts(doc, facts(90));
      const first = (await reportHashOf(ID, doc)).hash;
      expect(writeFacts(doc, facts(90, '99'))).toBe(false);
      expect((await reportHashOf(ID, doc)).hash).toBe(first);
      expect(writeFacts(doc, facts(80, '120'))).toBe(true);
      const second = await reportHashOf(ID, doc);
      expect(second.hash).not.toBe(first);
      expect(second.canonical).toContain('"percent":80');
      // Updated in place: still one block of each kind.
      expect(factsIn(second.content)).toHaveLength(2);
    });

    it('may be neither deleted nor changed by an editor', () => {
      const doc = new Y.Doc();
      writeReportTemplate(doc);
      writeFacts(doc, facts(90));
      const before = reportContentOf(doc);
      const deleted = { ...before, content: before.content!.filter((b) => b.type !== 'factBlock') };
      expect(keepsSections(before, deleted)).toBe(false);
      const edited = {
        ...before,
        content: before.content!.map((b) =>
          b.type === 'factBlock' ? { ...b, attrs: { ...b.attrs, values: { percent: 100 } } } : b,
        ),
      };
      expect(keepsSections(before, edited)).toBe(false);
      expect(keepsSections(before, before)).toBe(true);
    });
  });

  it('flags other students’ names as whole words, and counts characters per section', () => {
    const content = reportContentOf(docWith(['Ann reads well, better than Ben Smith did.']));
    expect(namesIn(content, ['Ben Smith', 'Bens Mith', 'Ann Other', 'ben'])).toEqual(['Ben Smith', 'ben']);
    expect(namesIn(content, ['Benjamin'])).toEqual([]);
    const lengths = sectionLengths(content);
    expect(lengths[0]).toEqual({ title: 'Attendance and engagement', characters: 42 });
    expect(lengths.slice(1).every((l) => l.characters === 0)).toBe(true);
  });
});

describe('checking an update without reading the whole text (decision 0071)', () => {
  /** A small seeded random, so a failure is repeatable. */
  function random(seed: number): () => number {
    let s = seed >>> 0;
    return () => {
      s = (s * 1664525 + 1013904223) >>> 0;
      return s / 2 ** 32;
    };
  }

  /** One random edit of the kinds editors make: type, format, suggest, split, delete, retitle, facts. */
  function edit(doc: Y.Doc, next: () => number, step: number): void {
    const top = doc.getXmlFragment('default');
    const blocks = top.toArray() as Y.XmlElement[];
    const block = blocks[Math.floor(next() * blocks.length)]!;
    const roll = next();
    let text = block.firstChild;
    if (!(text instanceof Y.XmlText)) {
      text = new Y.XmlText();
      block.insert(0, [text]);
    }
    const t = text;
    const at = Math.floor(next() * (t.length + 1));
    if (roll < 0.35) t.insert(at, `w${step} `);
    else if (roll < 0.5) t.insert(at, 'x', { insertion: { id: `u1.n.${step % 3}` } });
    else if (roll < 0.6 && t.length > 2) t.format(0, Math.min(3, t.length), { bold: {} });
    else if (roll < 0.7 && t.length > 2) t.delete(Math.min(at, t.length - 1), 1);
    else if (roll < 0.78) {
      const p = new Y.XmlElement('paragraph');
      p.insert(0, [new Y.XmlText(`new ${step}`)]);
      top.insert(Math.floor(next() * (blocks.length + 1)), [p]);
    } else if (roll < 0.84 && blocks.length > 3) top.delete(Math.floor(next() * blocks.length), 1);
    else if (roll < 0.9) block.setAttribute('textAlign', step % 2 ? 'left' : 'right');
    else t.insert(t.length, '!');
  }

  it('the content cache reads every block as a fresh conversion would, after any edit', () => {
    for (const seed of [1, 2, 3]) {
      const next = random(seed);
      const doc = new Y.Doc();
      writeReportTemplate(doc);
      const cache = new ReportContentCache(doc);
      for (let step = 0; step < 150; step++) {
        edit(doc, next, step);
        expect(cache.content()).toEqual(reportContentOf(doc));
      }
      cache.destroy();
    }
  });

  it('the sections are untouched by typing in a paragraph, and touched by a heading, a new block or a fact block', () => {
    const doc = new Y.Doc();
    writeReportTemplate(doc);
    writeFacts(doc, [
      {
        kind: 'lessons',
        period: 'p',
        values: { delivered: 1, planned: 0, cancelled: 0 },
        sourcePosition: '1',
      },
    ]);
    const top = doc.getXmlFragment('default');
    const changedBy = (change: () => void) => {
      let changed: ChangedType[] = [];
      const see = (tr: Y.Transaction) => (changed = [...tr.changed.keys()]);
      doc.on('afterTransaction', see);
      change();
      doc.off('afterTransaction', see);
      return sectionsUntouchedBy(changed, doc);
    };
    const nodes = () => top.toArray() as Y.XmlElement[];
    const first = (name: string) => nodes().find((n) => n.nodeName === name)!;
    const paragraph = first('paragraph');
    expect(changedBy(() => paragraph.insert(0, [new Y.XmlText('Typed.')]))).toBe(true);
    expect(changedBy(() => (paragraph.firstChild as Y.XmlText).insert(0, 'More '))).toBe(true);
    expect(changedBy(() => (paragraph.firstChild as Y.XmlText).format(0, 4, { bold: {} }))).toBe(true);
    expect(changedBy(() => paragraph.setAttribute('textAlign', 'center'))).toBe(true);
    expect(changedBy(() => (first('heading').firstChild as Y.XmlText).insert(0, 'x'))).toBe(false);
    expect(changedBy(() => first('heading').setAttribute('level', '3'))).toBe(false);
    expect(changedBy(() => first(FACT_BLOCK).setAttribute('kind', 'attendance'))).toBe(false);
    expect(changedBy(() => top.insert(1, [new Y.XmlElement('paragraph')]))).toBe(false);
    expect(changedBy(() => top.delete(top.length - 1, 1))).toBe(false);
    expect(changedBy(() => doc.getMap('other').set('k', 1))).toBe(false);
  });

  it('the checks give the same answers on cached blocks as on fresh conversions', () => {
    for (const seed of [4, 5]) {
      const next = random(seed);
      const doc = new Y.Doc();
      writeReportTemplate(doc);
      const cache = new ReportContentCache(doc);
      let cachedBefore = cache.content();
      let freshBefore = reportContentOf(doc);
      for (let step = 0; step < 120; step++) {
        edit(doc, next, step);
        const cachedAfter = cache.content();
        const freshAfter = reportContentOf(doc);
        expect(suggestionsIn(cachedAfter)).toEqual(suggestionsIn(freshAfter));
        expect(baselineOf(cachedAfter)).toEqual(baselineOf(freshAfter));
        expect(acceptedOf(cachedAfter)).toEqual(acceptedOf(freshAfter));
        expect(keepsSections(cachedBefore, cachedAfter)).toBe(keepsSections(freshBefore, freshAfter));
        expect(checkSuggestOnly(cachedBefore, cachedAfter, '1')).toEqual(
          checkSuggestOnly(freshBefore, freshAfter, '1'),
        );
        expect(holdsTemplateSections(cachedAfter)).toBe(holdsTemplateSections(freshAfter));
        cachedBefore = cachedAfter;
        freshBefore = freshAfter;
      }
      cache.destroy();
    }
  });
});
