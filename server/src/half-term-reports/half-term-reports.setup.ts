import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import {
  HALF_TERM_REPORT_DOCUMENT_KIND,
  halfTermReportById,
  parseStream,
  type LiveSummaries,
} from '@portal/projections';
import type { Actor } from '../platform/auth/request-context.js';
import { DocumentKinds, type DocumentKind } from '../platform/collaboration/document-kinds.js';
import type { RecordedEvent } from '../platform/event-store/event-store.js';
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
  constructor(
    private readonly rooms: RoomPolicy,
    private readonly kinds: DocumentKinds,
    @Inject(SQL_CLIENT) private readonly sql: SqlClient,
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
      .forStream('reportTimeframe', (_event, timeframeId) => [
        { room: INTERNAL_ROOM, data: { timeframeId } },
      ]);
    this.kinds.registerKind(this.documentKind());
  }

  onModuleDestroy(): void {
    this.kinds.unregisterKind(HALF_TERM_REPORT_DOCUMENT_KIND);
  }

  /** The mode the actor has on the report's live text now, or null (no access). */
  async modeOf(actor: Actor, id: string): Promise<'edit' | 'view' | null> {
    if (!UUID.test(id)) return null;
    const row = await halfTermReportById(this.sql, id);
    if (!row) return null;
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
      canWrite: async (actor, id) => (await this.modeOf(actor, id)) === 'edit',
      canRead: async (actor, id) => (await this.modeOf(actor, id)) !== null,
      accessChangedBy: (event) => {
        const stream = parseStream(event.stream);
        return stream?.kind === 'halfTermReport' ? stream.id : null;
      },
    };
  }
}
