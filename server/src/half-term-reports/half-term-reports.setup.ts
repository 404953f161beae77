import { randomUUID } from 'node:crypto';
import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type * as Y from 'yjs';
import {
  HALF_TERM_REPORT_DOCUMENT_KIND,
  acceptedOf,
  checkSuggestOnly,
  halfTermReportById,
  holdsTemplateSections,
  ReportContentCache,
  sectionsUntouchedBy,
  halfTermReportTextStream,
  parseStream,
  reportContentOf,
  suggestionChanges,
  suggestionsIn,
  type ContentNode,
  type LiveSummaries,
  type ReportPresence,
  type ReportTextEvent,
} from '@portal/projections';
import type { Actor } from '../platform/auth/request-context.js';
import type { UpdateCheck } from '../platform/collaboration/document-kinds.js';
import {
  DocumentKinds,
  type DocumentKind,
  type DocumentPresence,
  type LoadedDocument,
  type RefusedUpdate,
} from '../platform/collaboration/document-kinds.js';
import { toBase64 } from '../platform/collaboration/document-persistence.js';
import { EVENT_STORE } from '../platform/tokens.js';
import type { EventStore, RecordedEvent } from '../platform/event-store/event-store.js';
import { LiveServer } from '../platform/live/live-server.js';
import { textChange, typedOwnSuggestion, validateReportUpdate } from './report-text-rules.js';
import { LiveRooms, RoomPolicy, type Delivery } from '../platform/live/room-policy.js';
import type { SqlClient } from '../platform/sql/sql-client.js';
import { SQL_CLIENT } from '../platform/tokens.js';
import { isAdmin } from '../identity/policy/policy.js';
import { INTERNAL_ROOM } from '../reference/reference.setup.js';
import {
  documentMode,
  mayLeadReview,
  mayQaReview,
  reportAccess,
  teachesProgrammeSql,
} from './half-term-reports.policy.js';

/** Non-administrator QA reviewers and QA leads (their queues update live). */
export const QA_ROOM = 'half-term:qa';
export const QA_LEAD_ROOM = 'half-term:qa-lead';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A report event reaches administrators, its writers, and the QA rooms (queues); only `{ reportId,
 * state }`, each screen refetches through its own access. Partners are not told live.
 */
export function reportAudience(
  event: RecordedEvent,
  reportId: string,
): Delivery<LiveSummaries['halfTermReport']>[] {
  const d = (event.data ?? {}) as { writerIds?: string[]; state?: string; by?: string };
  const data = { reportId, state: d.state ?? '' };
  const users = new Set(d.writerIds ?? []);
  if (d.by) users.add(d.by);
  return [
    { room: LiveRooms.admins, data },
    { room: QA_ROOM, data },
    { room: QA_LEAD_ROOM, data },
    ...[...users].map((id) => ({ room: LiveRooms.user(id), data })),
  ];
}

/**
 * Registers the area's live rooms and the collaborative document `half-term-report:{id}` (decision
 * 0057): who may write follows the report's state and role (`documentMode`), readers are the report's
 * internal readers; partners never open the live text. Every report event re-checks open connections,
 * so publishing turns every open editor read-only at once.
 */
@Injectable()
export class HalfTermReportsSetup implements OnModuleInit, OnModuleDestroy {
  /** Who has which report's text open in this process (the live board; decision 0060). */
  private readonly presence = new Map<string, ReportPresence>();
  /**
   * Each report's review as last read for an access check (every connect, and every report event
   * re-checks open connections): who may edit directly in which review (decision 0067).
   */
  private readonly reviews = new Map<
    string,
    { state: string; since: string; claimer: string | null; writers: string[] }
  >();
  /** Direct edits during review already logged: `{report}:{user}:{state}:{since}` (one per claim). */
  private readonly directEditsLogged = new Set<string>();
  /** Per loaded document and shadow copy: its text, converted block by block (decision 0071). */
  private readonly contents = new WeakMap<Y.Doc, ReportContentCache>();

  constructor(
    private readonly rooms: RoomPolicy,
    private readonly kinds: DocumentKinds,
    @Inject(SQL_CLIENT) private readonly sql: SqlClient,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly live: LiveServer,
  ) {}

  onModuleInit(): void {
    this.rooms
      .addRooms((actor) => {
        if (isAdmin(actor.permissions)) return [];
        const rooms: string[] = [];
        if (mayQaReview(actor.permissions)) rooms.push(QA_ROOM);
        if (mayLeadReview(actor.permissions)) rooms.push(QA_LEAD_ROOM);
        return rooms;
      })
      .forStream('halfTermReport', reportAudience)
      .forStream('halfTermReportViews', (event, reportId) => {
        const d = (event.data ?? {}) as { viewerId?: string; via?: string };
        return [{ room: LiveRooms.admins, data: { reportId, viewerId: d.viewerId ?? '', via: d.via ?? '' } }];
      })
      .forStream('halfTermReportText', (event, reportId) => {
        const d = (event.data ?? {}) as { by?: string | null; authorId?: string | null; audience?: string[] };
        const data = { reportId, type: event.type };
        const users = new Set([d.by, d.authorId, ...(d.audience ?? [])].filter((u): u is string => !!u));
        return [
          { room: LiveRooms.admins, data },
          { room: QA_ROOM, data },
          { room: QA_LEAD_ROOM, data },
          ...[...users].map((id) => ({ room: LiveRooms.user(id), data })),
        ];
      })
      .forStream('reportTimeframe', (_event, timeframeId) => [
        { room: INTERNAL_ROOM, data: { timeframeId } },
      ]);
    this.kinds.registerKind(this.documentKind());
  }

  onModuleDestroy(): void {
    this.kinds.unregisterKind(HALF_TERM_REPORT_DOCUMENT_KIND);
  }

  /** The mode the actor has on the report's live text now, or null (no access). */
  async modeOf(actor: Actor, id: string): Promise<'edit' | 'suggest' | 'view' | null> {
    if (!UUID.test(id)) return null;
    const row = await halfTermReportById(this.sql, id);
    if (!row) return null;
    this.reviews.set(id, {
      state: row.state,
      since: new Date(row.state_since).toISOString(),
      claimer:
        row.state === 'in_qa'
          ? row.qa_claimed_by
          : row.state === 'in_lead_review'
            ? row.lead_claimed_by
            : null,
      writers: row.writer_ids,
    });
    const { rows } = await this.sql.query(
      `SELECT 1 FROM rm_half_term_reports r WHERE r.id = $1 AND ${teachesProgrammeSql('$2')}`,
      [id, actor.userId],
    );
    const access = reportAccess(actor, row, { teachesProgramme: rows.length > 0, linkedToStudent: false });
    return documentMode(actor, row, access);
  }

  documentKind(): DocumentKind {
    return {
      kind: HALF_TERM_REPORT_DOCUMENT_KIND,
      canWrite: async (actor, id) => {
        const mode = await this.modeOf(actor, id);
        return mode === 'edit' || mode === 'suggest';
      },
      canRead: async (actor, id) => (await this.modeOf(actor, id)) !== null,
      suggestOnly: async (actor, id) => (await this.modeOf(actor, id)) === 'suggest',
      accessChangedBy: (event) => {
        const stream = parseStream(event.stream);
        return stream?.kind === 'halfTermReport' ? stream.id : null;
      },
      validateUpdate: (check) => {
        // The document holds its template sections at this version (set by the last accepted update
        // when nothing else came between). An update that changed nothing but the inside of
        // paragraphs and lists cannot take them away (decision 0071): an editing connection's is then
        // accepted without reading the text, a suggest-only connection's is checked without the
        // section rule.
        const held = check.version !== undefined && check.memo?.get(SECTIONS_HELD_AT) === check.version;
        const holdNext = () => {
          if (check.version !== undefined) check.memo?.set(SECTIONS_HELD_AT, check.version + 1);
        };
        const sectionsKept = held && !!check.changed && sectionsUntouchedBy(check.changed, check.after);
        // The text after an accepted update is the next check's text before, when nothing else came
        // between; it is read from the shadow copy, which converts only the blocks the update changed.
        const keepAfter = (content: ContentNode) => {
          if (check.version !== undefined)
            check.memo?.set(CONTENT_AT_VERSION, { version: check.version + 1, content });
        };
        // A suggest-only keystroke that only typed the user's own insertion suggestion is accepted
        // from what it typed (decision 0082), without converting the text.
        if (
          sectionsKept &&
          check.suggestOnly &&
          check.insertions &&
          typedOwnSuggestion(check.insertions, check.actor.userId, check.after.getXmlFragment('default'))
        ) {
          holdNext();
          return null;
        }
        if (sectionsKept && !check.suggestOnly && this.directEditKey(check) === null) {
          holdNext();
          // The text is converted when something reads it (a full check, the flush's suggestion events).
          return null;
        }
        const before = (check.memo && keptContent(check.memo, check.version)) ?? this.contentOf(check.before);
        const after = this.contentOf(check.after);
        const reason = validateReportUpdate(check, { before, after }, { sectionsKept });
        if (reason !== null) return reason;
        // Accepted by keepsSections from a text that held its sections: the text after holds them too.
        if (held || holdsTemplateSections(after)) holdNext();
        keepAfter(after);
        if (!check.suggestOnly) this.noteDirectEdit(check, before, after);
        return null;
      },
      refused: (refused) => this.keepRefused(refused),
      loaded: (doc) => doc.memo.set(LAST_CONTENT, this.contentOf(doc.doc)),
      persisted: (doc, actors) => this.suggestionEvents(doc, actors),
      presence: (presence) => this.tellPresence(presence),
    };
  }

  /** The text of a loaded report document (or of its shadow copy), converted block by block as it changes. */
  private contentOf(doc: Y.Doc): ContentNode {
    let cache = this.contents.get(doc);
    if (!cache) {
      cache = new ReportContentCache(doc);
      this.contents.set(doc, cache);
    }
    return cache.content();
  }

  /** Who has each report's text open in this process now. */
  currentPresence(): ReportPresence[] {
    return [...this.presence.values()];
  }

  private tellPresence(p: DocumentPresence): void {
    const presence: ReportPresence = { reportId: p.id, editors: p.editors };
    if (p.editors.length) this.presence.set(p.id, presence);
    else this.presence.delete(p.id);
    this.live.namespace?.to([LiveRooms.admins, QA_ROOM, QA_LEAD_ROOM]).emit('report-presence', presence);
  }

  /** The claim under which this update's direct edit would be logged; null: nothing to log for it. */
  private directEditKey(check: UpdateCheck): string | null {
    const review = this.reviews.get(check.id);
    const by = check.actor.userId;
    if (!review || review.claimer !== by) return null;
    if (review.state !== 'in_qa' && review.state !== 'in_lead_review') return null;
    const key = `${check.id}:${by}:${review.state}:${review.since}`;
    return this.directEditsLogged.has(key) ? null : key;
  }

  /**
   * A reviewer who may edit (the QA claimer in `in_qa`, the lead claimer in `in_lead_review`) opens
   * suggesting and may switch to editing directly (brief §2): the first update of theirs that changes
   * the text outside suggestions is logged as `HalfTermReportDirectEditDuringReview`, once per claim.
   */
  private noteDirectEdit(check: UpdateCheck, before: ContentNode, after: ContentNode): void {
    const key = this.directEditKey(check);
    const review = this.reviews.get(check.id);
    const by = check.actor.userId;
    if (key === null || !review || (review.state !== 'in_qa' && review.state !== 'in_lead_review')) return;
    if (checkSuggestOnly(before, after, by).ok) return;
    this.directEditsLogged.add(key);
    const change = textChange(acceptedOf(before), acceptedOf(after));
    const event: ReportTextEvent = {
      type: 'HalfTermReportDirectEditDuringReview',
      data: { reportId: check.id, by, state: review.state, ...change, audience: review.writers },
    };
    this.store
      .append(
        halfTermReportTextStream(check.id),
        [{ id: randomUUID(), ...event, metadata: { actorId: by } }],
        {
          expectedRevision: 'any',
        },
      )
      .catch(() => this.directEditsLogged.delete(key));
  }

  /** Keeps a refused update as `HalfTermReportEditRefused` (its bytes and what it would have changed). */
  private async keepRefused(r: RefusedUpdate): Promise<{ ref: string; text: string }> {
    const change = textChange(acceptedOf(reportContentOf(r.before)), acceptedOf(reportContentOf(r.after)));
    const event: ReportTextEvent = {
      type: 'HalfTermReportEditRefused',
      data: {
        reportId: r.id,
        by: r.actor.userId,
        reason: r.reason,
        update: toBase64(r.update),
        removed: change.removed,
        inserted: change.inserted,
      },
    };
    const id = randomUUID();
    await this.store.append(
      halfTermReportTextStream(r.id),
      [{ id, ...event, metadata: { actorId: r.actor.userId } }],
      { expectedRevision: 'any' },
    );
    return { ref: id, text: change.inserted || change.removed };
  }

  /**
   * After a batch persisted: the suggestions made and resolved since the last batch of this process,
   * as events (decision 0060). `by` is the batch's one author (null when several wrote in it).
   */
  private async suggestionEvents(doc: LoadedDocument, actors: string[]): Promise<void> {
    const before = doc.memo.get(LAST_CONTENT) as ContentNode | undefined;
    // The text the last check kept is the document's when nothing changed it since (the shadow copy's
    // conversion): the document's own paragraphs are then not converted again at each flush.
    const after = keptContent(doc.memo, doc.version) ?? this.contentOf(doc.doc);
    doc.memo.set(LAST_CONTENT, after);
    if (!before) return;
    const { made, resolved } = suggestionChanges(before, after);
    if (made.length === 0 && resolved.length === 0) return;
    const open = suggestionsIn(after).length;
    const by = actors.length === 1 ? actors[0]! : null;
    const row = await halfTermReportById(this.sql, doc.id);
    const audience = row
      ? [
          ...new Set(
            [...row.writer_ids, row.qa_claimed_by, row.lead_claimed_by].filter((u): u is string => !!u),
          ),
        ]
      : [];
    const base = (s: { id: string; authorId: string | null; inserted: string; deleted: string }) => ({
      reportId: doc.id,
      suggestionId: s.id,
      authorId: s.authorId,
      inserted: s.inserted,
      deleted: s.deleted,
      open,
      audience,
    });
    const events: ReportTextEvent[] = [
      ...made.map((s): ReportTextEvent => ({ type: 'HalfTermReportSuggestionMade', data: base(s) })),
      ...resolved.map((s): ReportTextEvent => ({
        type: s.accepted ? 'HalfTermReportSuggestionAccepted' : 'HalfTermReportSuggestionRejected',
        data: { ...base(s), by, actors },
      })),
    ];
    await this.store.append(
      halfTermReportTextStream(doc.id),
      events.map((e) => ({ id: randomUUID(), ...e, metadata: { actorId: by } })),
      { expectedRevision: 'any' },
    );
  }
}

const LAST_CONTENT = 'content-at-last-flush';
/** The text after the last accepted update, with the document version it belongs to. */
const CONTENT_AT_VERSION = 'content-at-version';

/** The text a check kept for the document at `version`, if it is for that version. */
function keptContent(memo: Map<string, unknown>, version: number | undefined): ContentNode | undefined {
  const kept = memo.get(CONTENT_AT_VERSION) as { version: number; content: ContentNode } | undefined;
  return version !== undefined && kept?.version === version ? kept.content : undefined;
}
/** The document version at which the text is known to hold its template sections. */
const SECTIONS_HELD_AT = 'sections-held-at';
