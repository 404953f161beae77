import {
  absentIds,
  bigintSet,
  guardedSet,
  guardPasses,
  insertRows,
  jsonbAppend,
  NEW_ROWS,
  rowAbsent,
  type ProjectionEvent,
  type ProjectionTx,
} from '../projection.js';

/**
 * Where the safeguarding projection's incident rows and chronology lines go: straight to SQL (`apply`,
 * `sqlIncidentWrites`), or, in a rebuild's batch, through `IncidentFold` (decision 0088). The rules
 * (which line and columns each step writes) live once, in the projection; these only decide where
 * they are written.
 */

/** A step's chronology line, before it is given a student. */
export interface ChronologyLine {
  position: string;
  occurred_at: string;
  kind: string;
  summary: string;
  actor_id: string | null;
}

/** A reported incident's row: the columns the report sets (the others keep their defaults). */
export interface NewIncidentRow {
  id: string;
  risk_level: string;
  reporter_id: string;
  student_ids: string[];
  customer_ids: string[];
  type_ids: string[];
  occurred_at: string;
  reported_at: string;
  lesson_id: string | null;
  description: string;
  immediate_action: string;
  lead_told_verbally: boolean;
  version: string;
  position: string;
}

/** One element appended to a jsonb array column (actions, partner steps). */
export class Append {
  constructor(readonly element: unknown) {}
}

/** The columns a step sets, as plain values (`position` the event's, as text), or `Append`s. */
export type IncidentSet = Readonly<Record<string, unknown>>;

export interface IncidentWrites {
  /** A report: a chronology line per student and the incident's row, unless the row is there already. */
  report(row: NewIncidentRow, line: ChronologyLine): Promise<void>;
  /**
   * A later step, if the incident's version is older than `revision`: its chronology line for each of
   * the incident's students, the report's lines moved to `moveReportedTo` (a corrected time), and `set`.
   */
  step(
    incidentId: string,
    revision: bigint,
    line: ChronologyLine,
    set: IncidentSet,
    moveReportedTo: string | null,
  ): Promise<void>;
}

/** The writes `apply` makes: the statements of decision 0070, computed by SQL so nothing waits. */
export function sqlIncidentWrites(tx: ProjectionTx): IncidentWrites {
  return {
    async report(row, line) {
      // Its chronology lines first, only if the incident row is not there yet (its insert follows).
      await tx.query(
        `INSERT INTO rm_sg_chronology (position, student_id, incident_id, occurred_at, kind, summary, actor_id)
         SELECT $1::bigint, s.id, $6::uuid, $2, $3, $4, $5
           FROM unnest($7::uuid[]) WITH ORDINALITY AS s(id, n)
          WHERE ${rowAbsent('rm_sg_incidents', '$6::uuid')}
          ORDER BY s.n
         ON CONFLICT (position, student_id) DO NOTHING`,
        [line.position, line.occurred_at, line.kind, line.summary, line.actor_id, row.id, row.student_ids],
      );
      await tx.query(
        `INSERT INTO rm_sg_incidents (id, status, risk_level, reporter_id, student_ids, customer_ids, type_ids,
                                      occurred_at, reported_at, lesson_id, description, immediate_action,
                                      lead_told_verbally, updated_at, version, position)
         VALUES ($1, 'reported', $2, $3, $4::jsonb, $5::jsonb, $6::jsonb, $7, $8, $9, $10, $11, $12, $8,
                 $13::bigint, $14::bigint)
         ON CONFLICT (id) DO NOTHING`,
        [
          row.id,
          row.risk_level,
          row.reporter_id,
          JSON.stringify(row.student_ids),
          JSON.stringify(row.customer_ids),
          JSON.stringify(row.type_ids),
          row.occurred_at,
          row.reported_at,
          row.lesson_id,
          row.description,
          row.immediate_action,
          row.lead_told_verbally,
          row.version,
          row.position,
        ],
      );
    },
    async step(incidentId, revision, line, set, moveReportedTo) {
      // The step's chronology lines first, only if the guarded update of the incident row that follows
      // will change it (decision 0070).
      await tx.query(
        `INSERT INTO rm_sg_chronology (position, student_id, incident_id, occurred_at, kind, summary, actor_id)
         SELECT $1::bigint, s.value::uuid, i.id, $2, $3, $4, $5
           FROM rm_sg_incidents i CROSS JOIN LATERAL jsonb_array_elements_text(i.student_ids) s
          WHERE i.id = $6 AND i.version < $7::bigint
         ON CONFLICT (position, student_id) DO NOTHING`,
        [
          line.position,
          line.occurred_at,
          line.kind,
          line.summary,
          line.actor_id,
          incidentId,
          revision.toString(),
        ],
      );
      if (moveReportedTo !== null)
        await tx.query(
          `UPDATE rm_sg_chronology SET occurred_at = $2 WHERE incident_id = $1 AND kind = 'reported'
              AND ${guardPasses('rm_sg_incidents', '$1::uuid', '$3')}`,
          [incidentId, moveReportedTo, revision.toString()],
        );
      const columns: Record<string, unknown> = {};
      for (const [column, value] of Object.entries(set))
        columns[column] =
          value instanceof Append
            ? jsonbAppend(column, value.element)
            : column === 'position'
              ? bigintSet(value as string)
              : value;
      await guardedSet(tx, 'rm_sg_incidents', incidentId, revision, columns);
    },
  };
}

/** rm_sg_incidents' columns with their SQL types. */
const INCIDENT_COLUMNS = {
  id: 'uuid',
  status: 'text',
  risk_level: 'text',
  reporter_id: 'uuid',
  student_ids: 'jsonb',
  customer_ids: 'jsonb',
  type_ids: 'jsonb',
  occurred_at: 'timestamptz',
  reported_at: 'timestamptz',
  lesson_id: 'text',
  description: 'text',
  immediate_action: 'text',
  lead_told_verbally: 'boolean',
  acknowledged_at: 'timestamptz',
  acknowledged_by: 'uuid',
  assigned_lead_id: 'uuid',
  escalated_at: 'timestamptz',
  closed_at: 'timestamptz',
  actions: 'jsonb',
  partner_informed: 'jsonb',
  partner_feedback: 'jsonb',
  updated_at: 'timestamptz',
  version: 'bigint',
  position: 'bigint',
} as const;
type IncidentColumn = keyof typeof INCIDENT_COLUMNS;
const JSONB: readonly IncidentColumn[] = [
  'student_ids',
  'customer_ids',
  'type_ids',
  'actions',
  'partner_informed',
  'partner_feedback',
];

const CHRONOLOGY_COLUMNS = {
  position: 'bigint',
  student_id: 'uuid',
  incident_id: 'uuid',
  occurred_at: 'timestamptz',
  kind: 'text',
  summary: 'text',
  actor_id: 'uuid',
} as const;
type ChronologyRow = Record<keyof typeof CHRONOLOGY_COLUMNS, unknown>;

interface FoldedIncident {
  row: Record<IncidentColumn, unknown>;
  version: bigint;
  /** Its chronology lines, by position and student (lower case). */
  lines: Map<string, ChronologyRow>;
}

/**
 * The incidents a batch reports, folded in memory (decision 0088, like the registers and users of
 * decision 0086): an incident whose row did not exist when the batch began is created and changed in
 * memory with the guards of the SQL above, its chronology lines with it, and both are written once when
 * the batch ends. Nothing else writes them (every rule touches its own incident's row and lines only),
 * so the writes of incidents that existed before the batch go to SQL in turn.
 *
 * Checked by `incident-fold.int.spec.ts` (any batch boundaries give the rows that event-by-event apply
 * gives) and the projection contract.
 */
export class IncidentFold implements IncidentWrites {
  private readonly incidents = new Map<string, FoldedIncident>();
  private readonly sql: IncidentWrites;

  private constructor(
    private readonly tx: ProjectionTx,
    /** The ids (lower case) of the incidents the batch reports that have no row yet. */
    private readonly absent: ReadonlySet<string>,
  ) {
    this.sql = sqlIncidentWrites(tx);
  }

  /** Reads which of the incidents the batch reports have no row yet (one round trip, none without one). */
  static async start(events: readonly ProjectionEvent[], tx: ProjectionTx): Promise<IncidentFold> {
    const reported = events.flatMap((e) =>
      e.type === 'SafeguardingIncidentReported' ? [(e.data as { incidentId: string }).incidentId] : [],
    );
    return new IncidentFold(tx, await absentIds(tx, 'rm_sg_incidents', reported));
  }

  async report(row: NewIncidentRow, line: ChronologyLine): Promise<void> {
    const id = row.id.toLowerCase();
    if (!this.absent.has(id)) return this.sql.report(row, line);
    if (this.incidents.has(id)) return; // a second report keeps the row and its lines
    const full: Record<IncidentColumn, unknown> = {
      ...row,
      id,
      status: 'reported',
      acknowledged_at: null,
      acknowledged_by: null,
      assigned_lead_id: null,
      escalated_at: null,
      closed_at: null,
      actions: [],
      partner_informed: [],
      partner_feedback: [],
      updated_at: row.reported_at,
    };
    const incident: FoldedIncident = { row: full, version: BigInt(row.version), lines: new Map() };
    this.incidents.set(id, incident);
    addLines(incident, id, line, row.student_ids);
  }

  async step(
    incidentId: string,
    revision: bigint,
    line: ChronologyLine,
    set: IncidentSet,
    moveReportedTo: string | null,
  ): Promise<void> {
    const id = incidentId.toLowerCase();
    if (!this.absent.has(id)) return this.sql.step(incidentId, revision, line, set, moveReportedTo);
    const incident = this.incidents.get(id);
    // Before its report, or older than the row: the guarded statements would change nothing either.
    if (!incident || incident.version >= revision) return;
    addLines(incident, id, line, incident.row.student_ids as string[]);
    if (moveReportedTo !== null)
      for (const l of incident.lines.values()) if (l.kind === 'reported') l.occurred_at = moveReportedTo;
    for (const [column, value] of Object.entries(set)) {
      const key = column as IncidentColumn;
      incident.row[key] =
        value instanceof Append ? [...(incident.row[key] as unknown[]), value.element] : value;
    }
    incident.version = revision;
    incident.row.version = revision.toString();
  }

  /**
   * Writes the folded incidents and their chronology lines: one statement each. Both are new (decision
   * 0095): the incidents had no row when the batch began (`absentIds`, same transaction), and each
   * line's key holds the position of an event of this batch, which nothing has applied yet. So 100 or
   * more go with `COPY`; a conflict (a bug) fails the batch, which is then applied event by event.
   */
  async write(): Promise<void> {
    const incidents = [...this.incidents.values()];
    await insertRows(
      this.tx,
      'rm_sg_incidents',
      INCIDENT_COLUMNS,
      incidents.map(({ row }) => {
        const out = { ...row };
        for (const column of JSONB) out[column] = JSON.stringify(row[column]);
        return out;
      }),
      NEW_ROWS,
    );
    await insertRows(
      this.tx,
      'rm_sg_chronology',
      CHRONOLOGY_COLUMNS,
      incidents.flatMap((i) => [...i.lines.values()]),
      NEW_ROWS,
    );
  }
}

/** The step's line for each student, the first one kept (`ON CONFLICT (position, student_id) DO NOTHING`). */
function addLines(
  incident: FoldedIncident,
  id: string,
  line: ChronologyLine,
  students: readonly string[],
): void {
  for (const student of students) {
    const studentId = student.toLowerCase();
    const key = `${line.position} ${studentId}`;
    if (!incident.lines.has(key))
      incident.lines.set(key, { ...line, student_id: studentId, incident_id: id });
  }
}
