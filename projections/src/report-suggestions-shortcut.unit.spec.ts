import { describe, expect, it } from '@jest/globals';
import type { ContentNode } from './report-content.js';
import { checkSuggestOnly, onlyOwnInsertionsChanged } from './report-suggestions.js';

/**
 * Decision 0079: the suggest-only check's shortcut may only say yes where the full check says
 * `{ ok: true, resolved: [] }`. Random texts and random edits (many of them a suggest-only typist's,
 * many not) are put to both; the texts have no template headings, so the full check runs in full.
 */
const ME = '11111111-1111-4111-8111-111111111111';
const OTHER = '22222222-2222-4222-8222-222222222222';

let seed = 1;
const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;

const ids = [`u${ME}.a.1`, `u${ME}.a.2`, `u${OTHER}.b.1`, `u${OTHER}.b.2`];
const texts = ['a', 'b', ' ', '  ', 'word', '\u200B', 'x y'];

/** A random inline node: plain, bold, a suggestion of either kind or a formatting one, a hard break. */
function inline(kinds: readonly string[]): ContentNode {
  const kind = pick(kinds);
  if (kind === 'break') return { type: 'hardBreak' };
  const node: ContentNode = { type: 'text', text: pick(texts) };
  const marks: NonNullable<ContentNode['marks']> = [];
  if (kind === 'bold' || random() < 0.15) marks.push({ type: 'bold' });
  if (kind === 'insertion' || kind === 'deletion' || kind === 'modification')
    marks.push({ type: kind, attrs: { id: pick(ids) } });
  if (kind === 'both')
    marks.push(
      { type: 'deletion', attrs: { id: pick(ids) } },
      { type: 'insertion', attrs: { id: pick(ids) } },
    );
  marks.sort((x, y) => (x.type < y.type ? -1 : 1));
  if (marks.length) node.marks = marks;
  return node;
}

const ANY = ['plain', 'plain', 'bold', 'insertion', 'insertion', 'deletion', 'modification', 'break', 'both'];

function randomText(): ContentNode {
  const blocks: ContentNode[] = [];
  const n = 1 + Math.floor(random() * 4);
  for (let i = 0; i < n; i++) {
    const content = Array.from({ length: Math.floor(random() * 6) }, () => inline(ANY));
    const type = random() < 0.2 ? 'heading' : 'paragraph';
    const block: ContentNode = type === 'heading' ? { type, attrs: { level: 3 } } : { type };
    if (content.length) block.content = content;
    if (random() < 0.1)
      blocks.push({ type: 'bulletList', content: [{ type: 'listItem', content: [block] }] });
    else blocks.push(block);
  }
  return { type: 'doc', content: blocks };
}

/** A random edit of a copy: mostly what a suggest-only typist does, sometimes anything. */
function edited(before: ContentNode): ContentNode {
  const after = structuredClone<ContentNode>(before);
  const blocks = after.content!;
  const steps = 1 + Math.floor(random() * 3);
  for (let s = 0; s < steps; s++) {
    const b = Math.floor(random() * blocks.length);
    const block = blocks[b]!;
    if (block.type === 'bulletList' && random() < 0.5) continue;
    const nodes =
      block.type === 'bulletList' ? (block.content![0]!.content![0]!.content ?? []) : (block.content ?? []);
    const at = Math.floor(random() * (nodes.length + 1));
    const what = random();
    const inside = nodes[Math.min(at, nodes.length - 1)];
    if (what < 0.2 && inside?.type === 'text' && (inside.text ?? '').length >= 2) {
      // Typed inside a run (a concurrent keystroke lands between two letters): the run splits.
      const cut = 1 + Math.floor(random() * ((inside.text ?? '').length - 1));
      const left = { ...inside, text: inside.text!.slice(0, cut) };
      const right = { ...inside, text: inside.text!.slice(cut) };
      const typed: ContentNode[] =
        random() < 0.7
          ? [{ type: 'text', text: pick(texts), marks: [{ type: 'insertion', attrs: { id: pick(ids) } }] }]
          : random() < 0.5
            ? [{ type: 'text', text: pick(texts) }]
            : [];
      nodes.splice(nodes.indexOf(inside), 1, left, ...typed, right);
    } else if (what < 0.45)
      nodes.splice(at, 0, {
        type: 'text',
        text: pick(texts),
        marks: [{ type: 'insertion', attrs: { id: pick(ids) } }],
      });
    else if (what < 0.6 && nodes.length) nodes.splice(Math.min(at, nodes.length - 1), 1);
    else if (what < 0.7) nodes.splice(at, 0, inline(ANY));
    else if (what < 0.8 && nodes.length) {
      const n = nodes[Math.min(at, nodes.length - 1)]!;
      if (n.type === 'text') n.text = `${n.text ?? ''}${pick(texts)}`;
    } else if (what < 0.83 && inside?.type === 'text') {
      // Formatting changed on text that stays.
      const bold = (inside.marks ?? []).some((m) => m.type === 'bold');
      const marks = bold
        ? inside.marks!.filter((m) => m.type !== 'bold')
        : [{ type: 'bold' }, ...(inside.marks ?? [])];
      if (marks.length) inside.marks = marks;
      else delete inside.marks;
    } else if (what < 0.85) blocks.splice(b + 1, 0, { type: 'paragraph' });
    else if (what < 0.9 && blocks.length > 1) blocks.splice(b, 1);
    else if (what < 0.93) block.attrs = { level: 2 };
    else if (what < 0.96 && block.type !== 'bulletList')
      block.type = block.type === 'paragraph' ? 'heading' : 'paragraph';
    else continue;
    if (block.type !== 'bulletList') {
      if (nodes.length) block.content = nodes;
      else delete block.content;
    }
  }
  // Unchanged blocks stay the same objects, as the server's content cache hands them out.
  return {
    ...after,
    content: blocks.map((x, i) =>
      JSON.stringify(x) === JSON.stringify(before.content![i]) ? before.content![i]! : x,
    ),
  };
}

describe('the suggest-only shortcut (decision 0079)', () => {
  it('says yes only where the full check allows the update and resolves nothing', () => {
    let yes = 0;
    let fullOk = 0;
    for (let i = 0; i < 20_000; i++) {
      const before = randomText();
      const after = edited(before);
      const full = checkSuggestOnly(before, after, ME);
      if (full.ok && full.resolved.length === 0) fullOk++;
      if (onlyOwnInsertionsChanged(before, after, ME)) {
        yes++;
        expect({ before, after, full }).toEqual({ before, after, full: { ok: true, resolved: [] } });
      }
    }
    // The generator reaches the shortcut often, and the shortcut covers most of what it could.
    expect(yes).toBeGreaterThan(1_000);
    expect(yes / fullOk).toBeGreaterThan(0.3);
  });

  it('says no to text added under another author, to a deletion or formatting suggestion, and to plain text', () => {
    const before: ContentNode = {
      type: 'doc',
      content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Jack reads.' }] }],
    };
    const adding = (node: ContentNode): ContentNode => ({
      type: 'doc',
      content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Jack reads.' }, node] }],
    });
    const mark = (type: string, id = `u${ME}.n.1`) => ({
      type: 'text',
      text: ' Well',
      marks: [{ type, attrs: { id } }],
    });
    expect(onlyOwnInsertionsChanged(before, adding(mark('insertion')), ME)).toBe(true);
    expect(onlyOwnInsertionsChanged(before, adding(mark('insertion', `u${OTHER}.n.1`)), ME)).toBe(false);
    expect(onlyOwnInsertionsChanged(before, adding(mark('deletion')), ME)).toBe(false);
    expect(onlyOwnInsertionsChanged(before, adding(mark('modification')), ME)).toBe(false);
    expect(onlyOwnInsertionsChanged(before, adding({ type: 'text', text: ' Well' }), ME)).toBe(false);
    // Through the check: the same verdicts as without the shortcut.
    expect(checkSuggestOnly(before, adding(mark('insertion')), ME, { sectionsKept: true })).toEqual({
      ok: true,
      resolved: [],
    });
    expect(
      checkSuggestOnly(before, adding({ type: 'text', text: ' Well' }), ME, { sectionsKept: true }),
    ).toEqual({
      ok: false,
      reason: 'direct_edit',
    });
  });

  it('says no when a change alters how rejecting joins two paragraphs', () => {
    const id = `u${ME}.s.1`;
    const split = (text: string) => ({ type: 'text', text, marks: [{ type: 'insertion', attrs: { id } }] });
    // A suggested paragraph split: the first paragraph ends, the next starts, with the same suggestion.
    const before: ContentNode = {
      type: 'doc',
      content: [
        { type: 'paragraph', content: [{ type: 'text', text: 'One' }, split('\u200B')] },
        { type: 'paragraph', content: [split('\u200B'), { type: 'text', text: 'two' }] },
      ],
    };
    // Typing another own suggestion at the end of the first changes its last node: no longer joined.
    const after: ContentNode = {
      type: 'doc',
      content: [
        {
          type: 'paragraph',
          content: [
            { type: 'text', text: 'One' },
            split('\u200B'),
            { type: 'text', text: '!', marks: [{ type: 'insertion', attrs: { id: `u${ME}.s.2` } }] },
          ],
        },
        before.content![1]!,
      ],
    };
    expect(onlyOwnInsertionsChanged(before, after, ME)).toBe(false);
    expect(checkSuggestOnly(before, after, ME)).toEqual({ ok: false, reason: 'direct_edit' });
  });
});
