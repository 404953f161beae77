import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  teachingDaysFor,
  termCalendarById,
  termCalendarsProjection,
  termCalendarStream,
  type ProjectionEvent,
  type TermCalendarEvent,
} from '@portal/projections';
import type { SqlClient } from '../platform/sql/sql-client.js';
import { sqlTargets } from '../platform/testing/sql-targets.js';

const ENGLAND = '11111111-1111-4111-8111-111111111111';
const SPAIN = '22222222-2222-4222-8222-222222222222';
const OAK = '33333333-3333-4333-8333-333333333333';
const ELM = '44444444-4444-4444-8444-444444444444';
const NET_CAL = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const OAK_CAL = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const SPAIN_CAL = 'cccccccc-cccc-4ccc-8ccc-cccccccccccc';

const englandTerms = [
  { name: 'Autumn', firstDay: '2026-09-02', lastDay: '2026-12-18' },
  { name: 'Spring', firstDay: '2027-01-05', lastDay: '2027-03-26' },
  { name: 'Summer', firstDay: '2027-04-12', lastDay: '2027-07-21' },
];
const halfTerm = ['2026-10-26', '2026-10-27', '2026-10-28', '2026-10-29', '2026-10-30'].map((date) => ({
  date,
  reason: 'Half term',
}));

const history: TermCalendarEvent[] = [
  {
    type: 'TermCalendarCreated',
    data: {
      calendarId: NET_CAL,
      networkId: ENGLAND,
      customerId: null,
      name: '2026/27',
      terms: englandTerms,
      closures: halfTerm,
    },
  },
  {
    type: 'TermCalendarCreated',
    data: {
      calendarId: OAK_CAL,
      networkId: ENGLAND,
      customerId: OAK,
      name: 'Oak 2026/27',
      // Oak starts its spring term later; its autumn follows the network's.
      terms: [{ name: 'Spring', firstDay: '2027-01-11', lastDay: '2027-03-26' }],
      closures: [{ date: '2026-11-20', reason: 'INSET day' }],
    },
  },
  {
    type: 'TermCalendarCreated',
    data: {
      calendarId: SPAIN_CAL,
      networkId: SPAIN,
      customerId: null,
      name: '2026/27',
      terms: [{ name: 'Primer trimestre', firstDay: '2026-09-08', lastDay: '2026-12-22' }],
      closures: [{ date: '2026-10-12', reason: 'Fiesta Nacional' }],
    },
  },
  // The half term moves one day in a correction: the whole list is replaced.
  {
    type: 'TermCalendarClosuresChanged',
    data: {
      calendarId: NET_CAL,
      closures: [...halfTerm, { date: '2026-11-02', reason: 'INSET day' }],
    },
  },
  { type: 'TermCalendarRenamed', data: { calendarId: NET_CAL, name: 'England 2026/27' } },
];

const revisions = new Map<string, number>();
const recorded: ProjectionEvent[] = history.map((e, i) => {
  const stream = termCalendarStream(e.data.calendarId);
  const revision = revisions.get(stream) ?? 0;
  revisions.set(stream, revision + 1);
  return {
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    stream,
    revision: BigInt(revision),
    position: BigInt(i + 1),
    type: e.type,
    data: e.data,
    metadata: { actorId: null, occurredAt: new Date(Date.UTC(2026, 7, 1, 0, i)).toISOString() },
    createdAt: new Date(),
  };
});

describe.each(sqlTargets('portal_term_calendars'))('term calendars read model on $name', (target) => {
  let sql: SqlClient;
  beforeAll(async () => {
    sql = await target.open();
    for (const ddl of termCalendarsProjection.schema) await sql.query(ddl);
    await sql.transaction(async (tx) => {
      for (const e of recorded) await termCalendarsProjection.apply(e, tx);
      // Replayed: nothing changes (the guarded updates skip older revisions).
      for (const e of recorded) await termCalendarsProjection.apply(e, tx);
    });
  });
  afterAll(async () => {
    await sql.close();
    await target.close();
  });

  it('reads a calendar with its terms and closures in date order', async () => {
    const cal = await termCalendarById(sql, NET_CAL);
    expect(cal).toMatchObject({ name: 'England 2026/27', network_id: ENGLAND, customer_id: null });
    expect(cal!.terms.map((t) => [t.name, t.first_day, t.last_day])).toEqual([
      ['Autumn', '2026-09-02', '2026-12-18'],
      ['Spring', '2027-01-05', '2027-03-26'],
      ['Summer', '2027-04-12', '2027-07-21'],
    ]);
    expect(cal!.closures.map((c) => c.date)).toEqual([...halfTerm.map((h) => h.date), '2026-11-02']);
  });

  it("answers the network's terms overlapping the range and its closures inside it", async () => {
    const days = await teachingDaysFor(sql, {
      networkId: ENGLAND,
      customerId: null,
      from: '2026-10-01',
      to: '2026-10-31',
    });
    expect(days).toEqual({
      terms: [{ first_day: '2026-09-02', last_day: '2026-12-18' }],
      closures: ['2026-10-26', '2026-10-27', '2026-10-28', '2026-10-29', '2026-10-30'],
    });
  });

  it("adds a customer's closures to the network's, and its terms replace the network's where it has some", async () => {
    const autumn = await teachingDaysFor(sql, {
      networkId: ENGLAND,
      customerId: OAK,
      from: '2026-11-01',
      to: '2026-11-30',
    });
    expect(autumn).toEqual({
      terms: [{ first_day: '2026-09-02', last_day: '2026-12-18' }],
      closures: ['2026-11-02', '2026-11-20'],
    });
    const spring = await teachingDaysFor(sql, {
      networkId: ENGLAND,
      customerId: OAK,
      from: '2027-01-01',
      to: '2027-01-31',
    });
    expect(spring.terms).toEqual([{ first_day: '2027-01-11', last_day: '2027-03-26' }]);
    // Another school of the network keeps the network's terms and does not get Oak's INSET day.
    const elm = await teachingDaysFor(sql, {
      networkId: ENGLAND,
      customerId: ELM,
      from: '2026-11-01',
      to: '2027-01-31',
    });
    expect(elm).toEqual({
      terms: [
        { first_day: '2026-09-02', last_day: '2026-12-18' },
        { first_day: '2027-01-05', last_day: '2027-03-26' },
      ],
      closures: ['2026-11-02'],
    });
  });

  it('never answers an empty term list when a calendar applies, and answers none without a calendar', async () => {
    // The summer holiday lies in no term: the terms are still answered, so no day of it teaches.
    const summer = await teachingDaysFor(sql, {
      networkId: ENGLAND,
      customerId: null,
      from: '2027-08-01',
      to: '2027-08-31',
    });
    expect(summer.terms).toHaveLength(3);
    expect(summer.closures).toEqual([]);
    const nowhere = await teachingDaysFor(sql, {
      networkId: '55555555-5555-4555-8555-555555555555',
      customerId: null,
      from: '2026-09-01',
      to: '2027-08-31',
    });
    expect(nowhere).toEqual({ terms: [], closures: [] });
    // Spain's calendar does not leak into England's.
    const spain = await teachingDaysFor(sql, {
      networkId: SPAIN,
      customerId: null,
      from: '2026-10-01',
      to: '2026-10-31',
    });
    expect(spain).toEqual({
      terms: [{ first_day: '2026-09-08', last_day: '2026-12-22' }],
      closures: ['2026-10-12'],
    });
  });
});
