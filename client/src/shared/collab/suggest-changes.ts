import {
  suggestChanges,
  suggestChangesKey,
  transformToSuggestionTransaction,
} from '@handlewithcare/prosemirror-suggest-changes';
import { Extension, Mark } from '@tiptap/core';
import type { EditorState, Transaction } from '@tiptap/pm/state';
import {
  AddMarkStep,
  AddNodeMarkStep,
  AttrStep,
  RemoveMarkStep,
  ReplaceAroundStep,
  type Step,
} from '@tiptap/pm/transform';
import { ySyncPluginKey } from '@tiptap/y-tiptap';
import type { Node as PmNode } from '@tiptap/pm/model';
import {
  colourFor,
  keepsSections,
  suggestionAuthor,
  suggestionId,
} from '@portal/projections/report-suggestions';
import type { ContentNode } from '@portal/projections/report-content';

/**
 * Suggestion mode in the editor (decision 0060), with `@handlewithcare/prosemirror-suggest-changes`
 * (patched: a suggestion joins an adjacent one only of the same author). The marks `insertion`,
 * `deletion` and `modification` (the library's, as Tiptap marks; only `id` is stored, so they survive
 * the Yjs round trip), a `dispatchTransaction` hook that turns the user's own edits into suggestions
 * while suggesting (never a remote or an accept/reject), and guards: only inline edits may be
 * suggested (y-tiptap drops node marks) and the template sections may be neither deleted nor moved.
 */

const idAttr = {
  id: {
    default: null,
    parseHTML: (el: HTMLElement) => {
      const raw = el.dataset.id;
      return raw ? (JSON.parse(raw) as string) : null;
    },
    renderHTML: (attrs: Record<string, unknown>) => {
      const id = typeof attrs.id === 'string' ? attrs.id : '';
      const author = suggestionAuthor(id);
      return {
        'data-id': JSON.stringify(id),
        'data-author': author ?? '',
        style: `--suggestion-colour: ${author ? colourFor(author) : '#868e96'}`,
      };
    },
  },
};

export const Insertion = Mark.create({
  name: 'insertion',
  inclusive: false,
  excludes: 'deletion modification insertion',
  addAttributes: () => idAttr,
  parseHTML: () => [{ tag: 'ins[data-id]' }],
  renderHTML: ({ HTMLAttributes }) => ['ins', { ...HTMLAttributes, class: 'suggestion-insertion' }, 0],
});

export const Deletion = Mark.create({
  name: 'deletion',
  inclusive: false,
  excludes: 'insertion modification deletion',
  addAttributes: () => idAttr,
  parseHTML: () => [{ tag: 'del[data-id]' }],
  renderHTML: ({ HTMLAttributes }) => ['del', { ...HTMLAttributes, class: 'suggestion-deletion' }, 0],
});

/** Known to the schema (the library needs it) but never created: formatting is not suggested here. */
export const Modification = Mark.create({
  name: 'modification',
  inclusive: false,
  // Excludes itself as the other two do: y-prosemirror stores a mark that does not under a hashed name
  // (`modification--…`), which the server's formatting rule would not recognise.
  excludes: 'deletion insertion modification',
  addAttributes: () => ({
    ...idAttr,
    type: { default: null },
    attrName: { default: null },
    previousValue: { default: null },
    newValue: { default: null },
  }),
  parseHTML: () => [{ tag: 'span[data-type="modification"]' }],
  renderHTML: ({ HTMLAttributes }) => ['span', { ...HTMLAttributes, 'data-type': 'modification' }, 0],
});

export type SuggestRefusal = 'blocks' | 'formatting' | 'sections';

export const REFUSAL_TEXT: Record<SuggestRefusal, string> = {
  blocks:
    'Whole blocks (lists, headings, pasted paragraphs) cannot be suggested: suggest the words, or ask the writer.',
  formatting: 'Formatting cannot be suggested: suggest the words, or ask the writer.',
  sections: 'The report’s sections stay as they are: write inside them.',
};

const NODE_LEVEL = (step: Step) =>
  step instanceof ReplaceAroundStep || step instanceof AddNodeMarkStep || step instanceof AttrStep;
const FORMATTING = (step: Step) => step instanceof AddMarkStep || step instanceof RemoveMarkStep;

/** Whether a transaction came from the Yjs binding (another user's change, or an undo of the binding). */
export function isRemote(tr: Transaction): boolean {
  const meta = tr.getMeta(ySyncPluginKey) as
    { isChangeOrigin?: boolean; isUndoRedoOperation?: boolean } | undefined;
  return Boolean(meta?.isChangeOrigin || meta?.isUndoRedoOperation);
}

/** Whether the transaction carries the library's "skip" meta (accept and reject). */
const isResolution = (tr: Transaction) =>
  'skip' in ((tr.getMeta(suggestChangesKey) as Record<string, unknown> | undefined) ?? {});

/** A suggestion id generator for one user in one editor: `u{userId}.{nonce}.{n}`. */
export function suggestionIds(userId: string, nonce = Math.random().toString(36).slice(2, 8)) {
  let n = 0;
  return () => suggestionId(userId, nonce, ++n);
}

/**
 * The user's transaction as a suggestion, or why it cannot be one. Node-level steps (lists, headings,
 * whole blocks) and formatting are refused: y-tiptap keeps marks only on text, and the server
 * refuses formatting from a suggest-only connection.
 */
export function suggestTransaction(
  tr: Transaction,
  state: EditorState,
  nextId: () => string,
): { tr: Transaction } | { refused: SuggestRefusal } {
  if (tr.steps.some(NODE_LEVEL)) return { refused: 'blocks' };
  if (tr.steps.some(FORMATTING)) return { refused: 'formatting' };
  let tracked: Transaction;
  try {
    tracked = transformToSuggestionTransaction(tr, state, () => nextId());
  } catch {
    return { refused: 'blocks' };
  }
  if (tracked.steps.some(NODE_LEVEL)) return { refused: 'blocks' };
  return { tr: tracked };
}

const asContent = (doc: PmNode) => doc.toJSON() as ContentNode;

export interface SuggestChangesOptions {
  /** Whether this editor suggests now (the mode can change without rebuilding the editor). */
  suggesting: () => boolean;
  userId: string;
  /** Told when an edit could not be suggested (the edit is dropped). */
  onRefused: (why: SuggestRefusal) => void;
}

/** Turns the user's own edits into suggestions while suggesting. */
export const SuggestChanges = Extension.create<SuggestChangesOptions>({
  name: 'suggestChanges',
  addOptions: () => ({ suggesting: () => false, userId: '', onRefused: () => {} }),
  addStorage: () => ({ nextId: null as (() => string) | null }),
  addProseMirrorPlugins: () => [suggestChanges()],
  dispatchTransaction({ transaction, next }) {
    if (
      !this.options.suggesting() ||
      !transaction.docChanged ||
      isRemote(transaction) ||
      isResolution(transaction)
    )
      return next(transaction);
    const storage = this.storage as { nextId: (() => string) | null };
    storage.nextId ??= suggestionIds(this.options.userId);
    const result = suggestTransaction(transaction, this.editor.state, storage.nextId);
    if ('refused' in result) {
      this.options.onRefused(result.refused);
      return;
    }
    next(result.tr);
  },
});

/** Refuses local edits that delete, retitle or move a template section (remote changes always pass). */
export const SectionGuard = Extension.create<{ onRefused: (why: SuggestRefusal) => void }>({
  name: 'sectionGuard',
  addOptions: () => ({ onRefused: () => {} }),
  dispatchTransaction({ transaction, next }) {
    if (!transaction.docChanged || isRemote(transaction)) return next(transaction);
    if (!keepsSections(asContent(this.editor.state.doc), asContent(transaction.doc))) {
      this.options.onRefused('sections');
      return;
    }
    next(transaction);
  },
});
