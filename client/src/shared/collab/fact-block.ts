import { Node, mergeAttributes } from '@tiptap/core';
import { factText, type ReportFact } from '@portal/projections/report-content';

/**
 * A report's fact block (decision 0068): an atom the server writes (attendance, lessons delivered in
 * the period) and no editor changes. It is not selectable, draggable or typed into; the section guard
 * refuses local edits that delete or change it, and the collaboration server keeps its attributes.
 */
export const FactBlock = Node.create({
  name: 'factBlock',
  group: 'block',
  atom: true,
  selectable: false,
  draggable: false,
  addAttributes: () => ({
    kind: { default: null, rendered: false },
    period: { default: null, rendered: false },
    values: { default: null, rendered: false },
    sourcePosition: { default: null, rendered: false },
  }),
  parseHTML: () => [{ tag: 'div[data-fact-block]', ignore: true }],
  renderHTML({ node, HTMLAttributes }) {
    const fact = node.attrs as unknown as ReportFact;
    return [
      'div',
      mergeAttributes(HTMLAttributes, {
        'data-fact-block': fact.kind ?? '',
        contenteditable: 'false',
        role: 'note',
        'aria-label': 'Facts from the registers (refreshed while drafting)',
        style:
          'background:var(--mantine-color-gray-1);border-left:3px solid var(--mantine-color-blue-5);padding:4px 8px;margin:4px 0;font-size:var(--mantine-font-size-sm);user-select:none',
      }),
      fact.kind ? factText(fact) : '',
    ];
  },
});
