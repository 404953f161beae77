import * as Y from 'yjs';

/**
 * A report's text as signed (decision 0057): the Tiptap fragment `default` of the Yjs document as
 * ProseMirror-shaped JSON, in canonical form (object keys sorted, no whitespace: the RFC 8785 shape
 * for the strings, integers and booleans a document holds), and its SHA-256. Two documents with the
 * same text give the same hash whatever their edit history, and the server and every browser compute
 * it with this one module (WebCrypto, in Node and in browsers). Never hash the Yjs bytes: equal text
 * with different histories encodes differently.
 */

export interface ContentNode {
  type: string;
  attrs?: Record<string, unknown>;
  content?: ContentNode[];
  text?: string;
  marks?: { type: string; attrs?: Record<string, unknown> }[];
}

/** The attributes without undefined or null members (undefined when none is left). */
const cleanAttrs = (attrs: Record<string, unknown>): Record<string, unknown> | undefined => {
  let kept: Record<string, unknown> | undefined;
  for (const key in attrs) {
    const v = attrs[key];
    if (v !== undefined && v !== null) (kept ??= {})[key] = v;
  }
  return kept;
};

type Mark = NonNullable<ContentNode['marks']>[number];
const byType = (x: Mark, y: Mark) => (x.type < y.type ? -1 : x.type > y.type ? 1 : 0);

function textNodes(text: Y.XmlText): ContentNode[] {
  const out: ContentNode[] = [];
  for (const op of text.toDelta() as { insert: unknown; attributes?: Record<string, unknown> }[]) {
    if (typeof op.insert !== 'string' || op.insert === '') continue;
    const node: ContentNode = { type: 'text', text: op.insert };
    const attributes = op.attributes;
    if (attributes) {
      const marks: Mark[] = [];
      for (const type in attributes) {
        const attrs = attributes[type];
        const a =
          attrs && typeof attrs === 'object' ? cleanAttrs(attrs as Record<string, unknown>) : undefined;
        marks.push(a ? { type, attrs: a } : { type });
      }
      if (marks.length > 1) marks.sort(byType);
      if (marks.length) node.marks = marks;
    }
    out.push(node);
  }
  return out;
}

function elementNode(el: Y.XmlElement): ContentNode {
  const node: ContentNode = { type: el.nodeName };
  const attrs = cleanAttrs(el.getAttributes());
  if (attrs) node.attrs = attrs;
  const content = childNodes(el);
  if (content.length) node.content = content;
  return node;
}

function childNodes(parent: Y.XmlFragment | Y.XmlElement): ContentNode[] {
  const out: ContentNode[] = [];
  for (const child of parent.toArray()) {
    if (child instanceof Y.XmlText) out.push(...textNodes(child));
    else if (child instanceof Y.XmlElement) out.push(elementNode(child));
  }
  return out;
}

/** The document's text (fragment `default`) as ProseMirror-shaped JSON. */
export function reportContentOf(doc: Y.Doc): ContentNode {
  return { type: 'doc', content: childNodes(doc.getXmlFragment('default')) };
}

/**
 * `reportContentOf` for a document that changes a little at a time (decision 0071): each top-level
 * block's JSON is kept until a transaction changes something inside it, so reading the text after
 * typing in one paragraph converts that paragraph only. Gives what `reportContentOf` gives; the nodes
 * it returns are shared between reads and must not be changed.
 */
export class ReportContentCache {
  private readonly blocks = new WeakMap<object, ContentNode>();
  private readonly root: Y.XmlFragment;

  constructor(private readonly doc: Y.Doc) {
    this.root = doc.getXmlFragment('default');
    doc.on('afterTransaction', this.forget);
  }

  /** A change inside a block (Yjs marks the nearest type that existed before the transaction) drops it. */
  private readonly forget = (tr: Y.Transaction): void => {
    for (const type of tr.changed.keys()) {
      const block = topLevelBlock(type, this.root);
      if (block) this.blocks.delete(block);
    }
  };

  content(): ContentNode {
    const content: ContentNode[] = [];
    for (const child of this.root.toArray()) {
      if (child instanceof Y.XmlText) content.push(...textNodes(child));
      else if (child instanceof Y.XmlElement) {
        let node = this.blocks.get(child);
        if (!node) {
          node = elementNode(child);
          this.blocks.set(child, node);
        }
        content.push(node);
      }
    }
    return { type: 'doc', content };
  }

  destroy(): void {
    this.doc.off('afterTransaction', this.forget);
  }
}

/** Canonical JSON: keys sorted at every level, no whitespace, `undefined` members left out. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value))
      throw new TypeError('canonicalJson: not finite');
    return JSON.stringify(value) ?? 'null';
  }
  if (Array.isArray(value))
    return `[${value.map((v) => canonicalJson(v === undefined ? null : v)).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** What is signed: the report id and its content (not the revision, so an unchanged text keeps its hash). */
export function signedCanonical(reportId: string, content: ContentNode): string {
  return canonicalJson({ v: 1, report_id: reportId, content });
}

/** SHA-256 of a string's UTF-8 bytes, lower-case hex. */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** The canonical form and hash of a report document as it is now. */
export async function reportHashOf(
  reportId: string,
  doc: Y.Doc,
): Promise<{ canonical: string; hash: string; content: ContentNode }> {
  const content = reportContentOf(doc);
  const canonical = signedCanonical(reportId, content);
  return { canonical, hash: await sha256Hex(canonical), content };
}

/** The template sections every report starts with (heading + an empty paragraph each). */
export const REPORT_SECTIONS: readonly { key: string; title: string }[] = [
  { key: 'attendance', title: 'Attendance and engagement' },
  { key: 'progress', title: 'Progress against objectives' },
  { key: 'achievements', title: 'Achievements' },
  { key: 'next_steps', title: 'Next steps and targets' },
  { key: 'comment', title: 'Teacher comment' },
];

/** The facts line the template starts the attendance section with (not the writer's own text). */
export const FACTS_PREFIX = 'Lessons in the period: ';

/** The facts line for lesson counts: "Lessons in the period: 6 delivered, 2 planned." */
export const factsLine = (delivered: number, planned: number) =>
  `${FACTS_PREFIX}${delivered} delivered, ${planned} planned.`;

/**
 * Writes the template into an empty document (as Tiptap's StarterKit nodes: heading level 2 and a
 * paragraph per section), the facts line first under the attendance heading when given.
 */
export function writeReportTemplate(doc: Y.Doc, facts?: string): void {
  const fragment = doc.getXmlFragment('default');
  if (fragment.length > 0) return;
  doc.transact(() => {
    const nodes: Y.XmlElement[] = [];
    for (const section of REPORT_SECTIONS) {
      const heading = new Y.XmlElement('heading');
      heading.setAttribute('level', 2 as unknown as string);
      heading.insert(0, [new Y.XmlText(section.title)]);
      nodes.push(heading);
      if (facts && section.key === 'attendance') {
        const line = new Y.XmlElement('paragraph');
        line.insert(0, [new Y.XmlText(facts)]);
        nodes.push(line);
      }
      nodes.push(new Y.XmlElement('paragraph'));
    }
    fragment.insert(0, nodes);
  });
}

/* ------------------------------------------------------------------------------------------ facts */

/**
 * Facts in the draft (decision 0068): `factBlock` atom nodes at the top of the attendance section,
 * written by the server (`refresh-facts`, draft only) and never by an editor. They are part of the
 * content, so the sign-off hash covers them and the frozen snapshot keeps them as they were signed.
 */
export const FACT_BLOCK = 'factBlock';
/** A shared type as a Yjs transaction lists it in `changed`. */
export type ChangedType = Y.Transaction['changed'] extends Map<infer K, unknown> ? K : never;

/**
 * Whether an update that changed these shared types (a Yjs transaction's `changed`, on the document
 * after it) left the order of the top-level blocks, every top-level heading and every fact block as
 * they were: true only when each changed type lies inside a top-level block that is neither a heading
 * nor a fact block (typing or formatting inside a paragraph or a list). Then `keepsSections(before,
 * after)` answers as it would for the text before, which holds its sections when every earlier update
 * was checked (decision 0071). Anything else (the fragment itself, a heading, another root type): false.
 */
export function sectionsUntouchedBy(changed: Iterable<ChangedType>, doc: Y.Doc): boolean {
  const root = doc.getXmlFragment('default');
  for (const type of changed) {
    const block = topLevelBlock(type, root);
    if (!block || block.nodeName === 'heading' || block.nodeName === FACT_BLOCK) return false;
  }
  return true;
}

/** The top-level block (a child element of `root`) a type lies in; null for `root` itself or outside it. */
function topLevelBlock(type: ChangedType, root: Y.XmlFragment): Y.XmlElement | null {
  const top: unknown = root;
  let block: unknown = type;
  let parent: unknown = type.parent;
  while (parent instanceof Y.AbstractType && parent !== top) {
    block = parent;
    parent = parent.parent;
  }
  return parent === top && block instanceof Y.XmlElement ? (block as Y.XmlElement) : null;
}

export type FactKind = 'attendance' | 'lessons' | 'objectivesCovered';
export const FACT_KINDS: readonly FactKind[] = ['attendance', 'lessons', 'objectivesCovered'];

export interface ReportFact {
  kind: FactKind;
  /** The period the facts cover: `yyyy-MM-dd/yyyy-MM-dd` (the timeframe's period). */
  period: string;
  /** Counts (and lists) of the kind: see `factText`. */
  values: Record<string, number | string | string[]>;
  /** The event-store position the read models had reached when the facts were read. */
  sourcePosition: string;
}

const num = (v: unknown) => (typeof v === 'number' ? v : 0);
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The line a fact block shows (editor, PDF): the same words everywhere. */
export function factText(f: Pick<ReportFact, 'kind' | 'values'>): string {
  const v = f.values;
  switch (f.kind) {
    case 'attendance': {
      const possible = num(v.possible);
      if (possible === 0) return 'Attendance: no sessions marked in the period yet.';
      const late = num(v.late);
      return `Attendance: ${String(v.percent)}% (${num(v.attended)} of ${plural(possible, 'session')} attended${
        late ? `, ${late} late` : ''
      }${num(v.absences) ? `, ${plural(num(v.absences), 'absence')}` : ''}).`;
    }
    case 'lessons': {
      const cancelled = num(v.cancelled);
      return `Lessons in the period: ${num(v.delivered)} delivered, ${num(v.planned)} planned${
        cancelled ? `, ${cancelled} cancelled` : ''
      }.`;
    }
    case 'objectivesCovered': {
      const list = Array.isArray(v.objectives) ? v.objectives : [];
      return list.length
        ? `Objectives covered: ${list.join('; ')}.`
        : 'Objectives covered: none recorded in the period.';
    }
  }
}

const sameFact = (a: Record<string, unknown>, b: ReportFact) =>
  a.kind === b.kind && a.period === b.period && canonicalJson(a.values) === canonicalJson(b.values);

/**
 * Writes the facts into the document: an existing block of a kind is updated in place when its period
 * or values changed (a new `sourcePosition` alone is no change, so the hash stays), a missing one is
 * added after the attendance heading (and after the blocks already there), and the plain facts line
 * of reports written before fact blocks is removed. Returns whether the document changed.
 */
export function writeFacts(doc: Y.Doc, facts: readonly ReportFact[]): boolean {
  const fragment = doc.getXmlFragment('default');
  let changed = false;
  doc.transact(() => {
    const children = () => fragment.toArray();
    const plain = (el: Y.XmlElement): string =>
      el
        .toArray()
        .map((t): string => (t instanceof Y.XmlText ? String(t.toJSON()) : ''))
        .join('');
    const isBlock = (c: unknown): c is Y.XmlElement => c instanceof Y.XmlElement && c.nodeName === FACT_BLOCK;
    for (let i = children().length - 1; i >= 0; i--) {
      const child = children()[i];
      if (
        child instanceof Y.XmlElement &&
        child.nodeName === 'paragraph' &&
        plain(child).startsWith(FACTS_PREFIX)
      ) {
        fragment.delete(i, 1);
        changed = true;
      }
    }
    for (const fact of facts) {
      const all = children();
      const existing = all.find((c): c is Y.XmlElement => isBlock(c) && c.getAttribute('kind') === fact.kind);
      if (existing) {
        if (sameFact(existing.getAttributes(), fact)) continue;
        for (const [key, value] of Object.entries(fact)) existing.setAttribute(key, value as string);
        changed = true;
        continue;
      }
      const heading = all.findIndex(
        (c) =>
          c instanceof Y.XmlElement &&
          c.nodeName === 'heading' &&
          plain(c).trim() === REPORT_SECTIONS[0]!.title,
      );
      let at = heading + 1;
      while (at < all.length && isBlock(all[at])) at++;
      const block = new Y.XmlElement(FACT_BLOCK);
      for (const [key, value] of Object.entries(fact)) block.setAttribute(key, value as string);
      fragment.insert(at, [block]);
      changed = true;
    }
  });
  return changed;
}

/** The fact blocks of a content, as they are (the signed ones when the content is a snapshot's). */
export function factsIn(content: ContentNode): ReportFact[] {
  return (content.content ?? [])
    .filter((b) => b.type === FACT_BLOCK && b.attrs)
    .map((b) => b.attrs as unknown as ReportFact);
}

const textOf = (n: ContentNode): string => (n.text ?? '') + (n.content ?? []).map(textOf).join('');

/** Whether the writers wrote anything: text outside the headings and the facts line. */
export function hasWrittenText(content: ContentNode): boolean {
  return (content.content ?? []).some((block) => {
    if (block.type === 'heading') return false;
    const text = textOf(block).trim();
    return text !== '' && !text.startsWith(FACTS_PREFIX);
  });
}

/** Whether every template section has some text under its heading (for submit). */
export function emptySections(content: ContentNode): string[] {
  const empty: string[] = [];
  const blocks = content.content ?? [];
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i]!;
    if (block.type !== 'heading') continue;
    const title = textOf(block);
    if (!REPORT_SECTIONS.some((s) => s.title === title)) continue;
    let text = '';
    for (let j = i + 1; j < blocks.length && blocks[j]!.type !== 'heading'; j++)
      if (!textOf(blocks[j]!).startsWith(FACTS_PREFIX)) text += textOf(blocks[j]!);
    if (!text.trim()) empty.push(title);
  }
  return empty;
}

/** The plain text of the whole content (blocks separated by new lines). */
export function plainText(content: ContentNode): string {
  return (content.content ?? []).map(textOf).join('\n');
}

/** Characters written per template section (the facts line not counted). */
export function sectionLengths(content: ContentNode): { title: string; characters: number }[] {
  const out: { title: string; characters: number }[] = [];
  for (const block of content.content ?? []) {
    if (block.type === 'heading') out.push({ title: textOf(block), characters: 0 });
    else if (out.length && !textOf(block).startsWith(FACTS_PREFIX))
      out.at(-1)!.characters += textOf(block).length;
  }
  return out;
}

/** Which of `names` appear in the text (case-insensitive, whole words): another student's name pasted in. */
export function namesIn(content: ContentNode, names: readonly string[]): string[] {
  const text = plainText(content).toLowerCase();
  return names.filter((name) => {
    const escaped = name.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    return new RegExp(`(^|[^\\p{L}])${escaped}($|[^\\p{L}])`, 'u').test(text);
  });
}
