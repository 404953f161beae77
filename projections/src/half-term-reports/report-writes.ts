import {
  absentIds,
  guardedSet,
  insertRows,
  NEW_ROWS,
  jsonbSet,
  type ProjectionEvent,
  type ProjectionTx,
} from '../projection.js';

/**
 * Where the half-term-reports projection's report rows and timeline go: straight to SQL (`apply`,
 * `sqlReportWrites`), or, in a rebuild's batch, through `ReportFold` (decision 0088). The rules
 * (which columns an event sets) live once, in the projection; these only decide where they are written.
 */

/** One line of a report's timeline (`rm_half_term_report_timeline`). */
export interface TimelineRow {
  event_id: string;
  report_id: string;
  type: string;
  by_user: string | null;
  reason: string | null;
  state: string;
  hash: string | null;
  revision: number | null;
  at: string;
  position: string;
}

/** A new report's row: the columns `HalfTermReportCreated` sets (the others keep their defaults). */
export interface NewReportRow {
  id: string;
  timeframe_id: string;
  student_id: string;
  programme_id: string;
  customer_id: string;
  writer_ids: string[];
  state: string;
  state_since: string;
  lesson_counts: unknown[];
  created_at: string;
  updated_at: string;
  version: string;
}

/** A report row's columns changed by an event, as plain values (`writer_ids` an array of ids). */
export type ReportSet = Readonly<Record<string, unknown>>;

export interface ReportWrites {
  /** Adds a timeline line (kept if the event's line is there already). */
  timeline(row: TimelineRow): Promise<void>;
  /** Inserts a report's row unless it is there already. */
  create(row: NewReportRow): Promise<void>;
  /** Sets columns of report `id` if its version is older than `revision` (then also the version). */
  set(id: string, revision: bigint, set: ReportSet): Promise<void>;
  /** Sets the report's count of open suggestions (not versioned: the text stream's latest count). */
  unresolved(id: string, open: number): Promise<void>;
}

const TIMELINE_COLUMNS = {
  event_id: 'text',
  report_id: 'uuid',
  type: 'text',
  by_user: 'uuid',
  reason: 'text',
  state: 'text',
  hash: 'text',
  revision: 'int',
  at: 'timestamptz',
  position: 'bigint',
} as const;

/** The writes `apply` makes: one statement each. */
export function sqlReportWrites(tx: ProjectionTx): ReportWrites {
  return {
    async timeline(r) {
      await tx.query(
        `INSERT INTO rm_half_term_report_timeline (event_id, report_id, type, by_user, reason, state, hash,
           revision, at, position)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10::bigint) ON CONFLICT (event_id) DO NOTHING`,
        [r.event_id, r.report_id, r.type, r.by_user, r.reason, r.state, r.hash, r.revision, r.at, r.position],
      );
    },
    async create(r) {
      await tx.query(
        `INSERT INTO rm_half_term_reports (id, timeframe_id, student_id, programme_id, customer_id, writer_ids,
           state, state_since, lesson_counts, created_at, updated_at, version)
         VALUES ($1,$2,$3,$4,$5,$6::jsonb,$7,$8,$9::jsonb,$10,$11,$12::bigint) ON CONFLICT (id) DO NOTHING`,
        [
          r.id,
          r.timeframe_id,
          r.student_id,
          r.programme_id,
          r.customer_id,
          JSON.stringify(r.writer_ids),
          r.state,
          r.state_since,
          JSON.stringify(r.lesson_counts),
          r.created_at,
          r.updated_at,
          r.version,
        ],
      );
    },
    async set(id, revision, set) {
      const columns = { ...set };
      if ('writer_ids' in columns) columns.writer_ids = jsonbSet(columns.writer_ids);
      await guardedSet(tx, 'rm_half_term_reports', id, revision, columns);
    },
    async unresolved(id, open) {
      await tx.query(`UPDATE rm_half_term_reports SET unresolved_suggestions = $2 WHERE id = $1`, [id, open]);
    },
  };
}

/** rm_half_term_reports' columns with their SQL types, and the defaults of those a creation leaves out. */
const REPORT_COLUMNS = {
  id: 'uuid',
  timeframe_id: 'uuid',
  student_id: 'uuid',
  programme_id: 'uuid',
  customer_id: 'uuid',
  writer_ids: 'jsonb',
  qa_reviewer_id: 'uuid',
  lead_reviewer_id: 'uuid',
  state: 'text',
  revision: 'int',
  content_hash: 'text',
  qa_claimed_by: 'uuid',
  lead_claimed_by: 'uuid',
  qa_approved_by: 'uuid',
  published_revision: 'int',
  published_at: 'timestamptz',
  submitted_at: 'timestamptz',
  state_since: 'timestamptz',
  unresolved_suggestions: 'int',
  lesson_counts: 'jsonb',
  extended_submit_by: 'text',
  deadline_missed_at: 'timestamptz',
  missed_submit_by: 'text',
  created_at: 'timestamptz',
  updated_at: 'timestamptz',
  version: 'bigint',
} as const;
type ReportColumn = keyof typeof REPORT_COLUMNS;
const DEFAULTS: Partial<Record<ReportColumn, unknown>> = { revision: 1, unresolved_suggestions: 0 };

interface FoldedReport {
  row: Record<ReportColumn, unknown>;
  version: bigint;
}

/**
 * The reports a batch creates, folded in memory (decision 0088, like the registers and users of
 * decision 0086): a report whose row did not exist when the batch began is created and changed in
 * memory, with the version guard of `guardedSet`, and written once when the batch ends. Nothing else
 * writes that row (every rule touches its own report's row only), so the writes of reports that existed
 * before the batch go to SQL in turn. Timeline lines are only ever inserted and never read while events
 * are applied, so all of a batch's lines are inserted together at its end.
 *
 * Checked by `report-fold.int.spec.ts` (any batch boundaries give the rows that event-by-event apply
 * gives) and the projection contract.
 */
export class ReportFold implements ReportWrites {
  private readonly reports = new Map<string, FoldedReport>();
  private readonly lines: TimelineRow[] = [];
  private readonly sql: ReportWrites;

  private constructor(
    private readonly tx: ProjectionTx,
    /** The ids (lower case) of the reports the batch creates that have no row yet. */
    private readonly absent: ReadonlySet<string>,
  ) {
    this.sql = sqlReportWrites(tx);
  }

  /** Reads which of the reports the batch creates have no row yet (one round trip, none without one). */
  static async start(events: readonly ProjectionEvent[], tx: ProjectionTx): Promise<ReportFold> {
    const created = events.flatMap((e) =>
      e.type === 'HalfTermReportCreated' ? [(e.data as { reportId: string }).reportId] : [],
    );
    return new ReportFold(tx, await absentIds(tx, 'rm_half_term_reports', created));
  }

  timeline(row: TimelineRow): Promise<void> {
    this.lines.push(row);
    return Promise.resolve();
  }

  async create(row: NewReportRow): Promise<void> {
    const id = row.id.toLowerCase();
    if (!this.absent.has(id)) return this.sql.create(row);
    if (this.reports.has(id)) return; // a second creation keeps the row
    const full = {} as Record<ReportColumn, unknown>;
    for (const column of Object.keys(REPORT_COLUMNS) as ReportColumn[])
      full[column] = column in row ? row[column as keyof NewReportRow] : (DEFAULTS[column] ?? null);
    full.id = id;
    this.reports.set(id, { row: full, version: BigInt(row.version) });
  }

  async set(id: string, revision: bigint, set: ReportSet): Promise<void> {
    const key = id.toLowerCase();
    if (!this.absent.has(key)) return this.sql.set(id, revision, set);
    const report = this.reports.get(key);
    // Before its creation, or older than the row: the guarded update would change nothing either.
    if (!report || report.version >= revision) return;
    Object.assign(report.row, set);
    report.version = revision;
    report.row.version = revision.toString();
  }

  async unresolved(id: string, open: number): Promise<void> {
    const key = id.toLowerCase();
    if (!this.absent.has(key)) return this.sql.unresolved(id, open);
    const report = this.reports.get(key);
    if (report) report.row.unresolved_suggestions = open;
  }

  /** Writes the folded reports and the batch's timeline lines: one statement each. */
  async write(): Promise<void> {
    await insertRows(
      this.tx,
      'rm_half_term_reports',
      REPORT_COLUMNS,
      [...this.reports.values()].map(({ row }) => ({
        ...row,
        writer_ids: JSON.stringify(row.writer_ids),
        lesson_counts: JSON.stringify(row.lesson_counts),
      })),
      // New rows: their ids were free (`absentIds`), each created once.
      NEW_ROWS,
    );
    await insertRows(this.tx, 'rm_half_term_report_timeline', TIMELINE_COLUMNS, this.lines);
  }
}
