import { describe, expect, it } from '@jest/globals';
import { applySuggestion, revertSuggestion } from '@handlewithcare/prosemirror-suggest-changes';
import { getSchema } from '@tiptap/core';
import { EditorState, type Transaction } from '@tiptap/pm/state';
import StarterKit from '@tiptap/starter-kit';
import { prosemirrorJSONToYDoc } from '@tiptap/y-tiptap';
import { plainText, reportContentOf, type ContentNode } from '@portal/projections/report-content';
import { checkSuggestOnly, suggestionChanges, suggestionsIn } from '@portal/projections/report-suggestions';
import { Deletion, Insertion, Modification, suggestionIds, suggestTransaction } from './suggest-changes';

/**
 * The suggest-only invariant end to end on the editor's schema: what the browser's suggestion mode
 * produces, passed through Yjs as the server sees it, checked by the server's rule (decision 0060).
 */
const schema = getSchema([StarterKit.configure({ undoRedo: false }), Insertion, Deletion, Modification]);
const QA = '11111111-1111-4111-8111-111111111111';
const TEACHER = '22222222-2222-4222-8222-222222222222';

const start = (): EditorState =>
  EditorState.create({
    schema,
    doc: schema.nodeFromJSON({
      type: 'doc',
      content: [
        { type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: 'Teacher comment' }] },
        { type: 'paragraph', content: [{ type: 'text', text: 'Jack reads well.' }] },
      ],
    }),
  });

/** The text as the server rebuilds it from the Yjs document. */
const server = (state: EditorState): ContentNode =>
  reportContentOf(prosemirrorJSONToYDoc(schema, state.doc.toJSON(), 'default'));

const PARA = 1 + 'Teacher comment'.length + 2; // first position inside the paragraph

function suggest(state: EditorState, tr: Transaction, ids: () => string): EditorState {
  const result = suggestTransaction(tr, state, ids);
  if ('refused' in result) throw new Error(`refused: ${result.refused}`);
  return state.apply(result.tr);
}

function run(state: EditorState, command: (s: EditorState, d: (tr: Transaction) => void) => boolean) {
  let next = state;
  command(state, (tr) => (next = state.apply(tr)));
  return next;
}

describe('suggest-only invariant (editor → Yjs → server check)', () => {
  it('refuses a direct edit from a suggest-only user', () => {
    const before = start();
    const after = before.apply(before.tr.insertText('Jake', PARA, PARA + 4));
    expect(checkSuggestOnly(server(before), server(after), QA)).toEqual({ ok: false, reason: 'direct_edit' });
  });

  it('lets a suggestion pass, attributed to its author, and accept and reject give the expected text', () => {
    const before = start();
    const qa = suggestionIds(QA);
    const after = suggest(before, before.tr.insertText('Jake', PARA, PARA + 4), qa);
    expect(checkSuggestOnly(server(before), server(after), QA)).toEqual({ ok: true, resolved: [] });
    const [s] = suggestionsIn(server(after));
    expect(s).toMatchObject({ authorId: QA, inserted: 'Jake', deleted: 'Jack' });
    // Someone else may not add a suggestion under the QA reviewer's id.
    expect(checkSuggestOnly(server(before), server(after), TEACHER)).toEqual({
      ok: false,
      reason: 'foreign_suggestion',
    });

    const accepted = run(after, applySuggestion(s!.id));
    expect(plainText(server(accepted))).toBe('Teacher comment\nJake reads well.');
    expect(checkSuggestOnly(server(after), server(accepted), TEACHER)).toEqual({
      ok: true,
      resolved: [{ id: s!.id, accepted: true }],
    });
    const rejected = run(after, revertSuggestion(s!.id));
    expect(plainText(server(rejected))).toBe('Teacher comment\nJack reads well.');
    expect(checkSuggestOnly(server(after), server(rejected), TEACHER)).toEqual({
      ok: true,
      resolved: [{ id: s!.id, accepted: false }],
    });
    expect(suggestionChanges(server(after), server(accepted)).resolved).toEqual([
      expect.objectContaining({ id: s!.id, accepted: true, inserted: 'Jake' }),
    ]);
  });

  it('a paragraph split is a suggestion too; rejecting it joins the paragraph again', () => {
    const before = start();
    const qa = suggestionIds(QA);
    const split = suggest(before, before.tr.split(PARA + 'Jack reads'.length), qa);
    expect(split.doc.childCount).toBe(3);
    expect(checkSuggestOnly(server(before), server(split), QA)).toMatchObject({ ok: true });
    const [s] = suggestionsIn(server(split));
    const rejected = run(split, revertSuggestion(s!.id));
    expect(plainText(server(rejected))).toBe('Teacher comment\nJack reads well.');
    expect(checkSuggestOnly(server(split), server(rejected), TEACHER)).toMatchObject({ ok: true });
  });

  it('typing beside another author’s suggestion makes the typist’s own suggestion (patched library)', () => {
    const qa = suggestionIds(QA);
    const teacher = suggestionIds(TEACHER);
    let state = suggest(start(), start().tr.insertText('Jake', PARA, PARA + 4), qa);
    const end = PARA + 'JackJake'.length;
    state = suggest(state, state.tr.insertText(' often', end), teacher);
    const byAuthor = suggestionsIn(server(state)).map((s) => [s.authorId, s.inserted]);
    expect(byAuthor).toEqual([
      [QA, 'Jake'],
      [TEACHER, ' often'],
    ]);
  });

  it('refuses node-level suggestions and formatting in the editor, and deleting a template section on the server', () => {
    const state = start();
    const qa = suggestionIds(QA);
    const heading = state.tr.setBlockType(PARA, PARA, schema.nodes.heading!, { level: 3 });
    expect(suggestTransaction(heading, state, qa)).toEqual({ refused: 'blocks' });
    const bold = state.tr.addMark(PARA, PARA + 4, schema.marks.bold!.create());
    expect(suggestTransaction(bold, state, qa)).toEqual({ refused: 'formatting' });
    // A suggested deletion of the section heading would delete it once accepted.
    const deleted = suggest(state, state.tr.delete(1, 1 + 'Teacher comment'.length), qa);
    expect(checkSuggestOnly(server(state), server(deleted), QA)).toEqual({ ok: false, reason: 'sections' });
  });

  it('refuses on the server a formatting suggestion that did not come through the editor', () => {
    const before = start();
    // What a client that skips the editor's refusal could send: bold, marked as the QA's modification.
    const mark = schema.marks.modification!.create({
      id: `u${QA}.n.1`,
      type: 'attr',
      attrName: 'bold',
      previousValue: null,
      newValue: true,
    });
    const after = before.apply(before.tr.addMark(PARA, PARA + 4, mark));
    expect(checkSuggestOnly(server(before), server(after), QA)).toEqual({ ok: false, reason: 'formatting' });
    // A text that already held one is not refused for it again (only a new one is).
    const more = after.apply(after.tr.insertText('x', PARA + 10));
    expect(checkSuggestOnly(server(after), server(more), QA)).toEqual({ ok: false, reason: 'direct_edit' });
  });
});
