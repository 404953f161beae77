import { expect } from '@jest/globals';
import { programmesProjection, programmeStream, type ProjectionEvent } from '@portal/projections';
import { describeFoldInBatches, record } from '../platform/testing/projection-contract.js';

/**
 * Decision 0090: a batch of programme events folds the programmes it touches in memory (their rows
 * read once, whether or not an earlier batch made them, with the kit's `TouchedRows`) and writes the
 * changed rows once. Whatever the batch boundaries, the rows must be those of event-by-event apply.
 * The history walks every programme rule: creation (a copy, with no network or end date), a details
 * change of some fields (clearing the end date), every status change, a second creation (the row
 * stays), an event before its programme's creation, and ids in capitals.
 */
const id = (n: number) => `abcdef00-0000-4000-8000-${String(n).padStart(12, '0')}`;
const [OLD, MATHS, ART] = [id(1), id(2), id(3)];
const [CUSTOMER, NETWORK, PRODUCT, SUBJECT] = [id(30), id(31), id(32), id(33)];

const created = (programmeId: string, title: string, more: object = {}) =>
  [
    programmeStream(programmeId.toLowerCase()),
    'ProgrammeCreated',
    {
      programmeId,
      networkId: NETWORK,
      customerId: CUSTOMER,
      sourceProgrammeId: null,
      title,
      productId: PRODUCT,
      subjectId: SUBJECT,
      yearGroupId: null,
      kind: 'lesson',
      startDate: '2026-09-01',
      endDate: '2027-07-20',
      timezone: 'Europe/London',
      ...more,
    },
  ] as const;
const changed = (programmeId: string, details: object) =>
  [
    programmeStream(programmeId.toLowerCase()),
    'ProgrammeDetailsChanged',
    { programmeId, customerId: CUSTOMER, ...details },
  ] as const;
const status = (programmeId: string, type: string) =>
  [programmeStream(programmeId.toLowerCase()), type, { programmeId, customerId: CUSTOMER }] as const;

const history: ProjectionEvent[] = record([
  created(OLD, 'Old'), // 0
  status(OLD, 'ProgrammeActivated'), // 1
  status(ART, 'ProgrammeActivated'), // 2: before ART's creation: nothing
  created(MATHS.toUpperCase(), 'Maths'), // 3
  changed(OLD, { title: 'Old, renamed', endDate: null }), // 4
  status(MATHS, 'ProgrammeActivated'), // 5
  created(ART, 'Art', { networkId: null, sourceProgrammeId: OLD, endDate: null }), // 6
  status(OLD, 'ProgrammePaused'), // 7
  changed(MATHS, { kind: 'mentoring-session', subjectId: null, startDate: '2026-10-01' }), // 8
  created(MATHS, 'Second creation'), // 9: the row stays
  status(OLD, 'ProgrammeResumed'), // 10
  status(ART.toUpperCase(), 'ProgrammeActivated'), // 11
  changed(ART, { timezone: 'Europe/Dublin', yearGroupId: id(34) }), // 12
  status(MATHS, 'ProgrammePaused'), // 13
  status(OLD, 'ProgrammeCompleted'), // 14
  changed(MATHS, { title: 'Maths B' }), // 15
  status(ART, 'ProgrammeCancelled'), // 16
  status(MATHS, 'ProgrammeResumed'), // 17
  changed(OLD, { endDate: '2027-08-31' }), // 18
  status(MATHS, 'ProgrammeCompleted'), // 19
]);

describeFoldInBatches('programmes projection', 'portal_programme_fold', programmesProjection, history, {
  title: 'event by event, the history sets every programme rule',
  async check(sql) {
    const { rows } = await sql.query(
      `SELECT id::text, network_id::text AS network, subject_id::text AS subject, year_group_id::text AS year,
         source_programme_id::text AS source, kind, title, start_date::text AS start, end_date::text AS "end",
         timezone, status, version::int
       FROM rm_programmes ORDER BY id`,
    );
    expect(rows).toEqual([
      {
        id: OLD,
        network: NETWORK,
        subject: SUBJECT,
        year: null,
        source: null,
        kind: 'lesson',
        title: 'Old, renamed',
        start: '2026-09-01',
        end: '2027-08-31',
        timezone: 'Europe/London',
        status: 'completed',
        version: 6,
      },
      {
        id: MATHS,
        network: NETWORK,
        subject: null,
        year: null,
        source: null,
        kind: 'mentoring-session',
        title: 'Maths B',
        start: '2026-10-01',
        end: '2027-07-20',
        timezone: 'Europe/London',
        status: 'completed',
        version: 7,
      },
      {
        id: ART,
        network: null,
        subject: SUBJECT,
        year: id(34),
        source: OLD,
        kind: 'lesson',
        title: 'Art',
        start: '2026-09-01',
        end: null,
        timezone: 'Europe/Dublin',
        status: 'cancelled',
        version: 4, // its stream began with the activation that came too early
      },
    ]);
  },
});
