import { describe, expect, it } from '@jest/globals';
import {
  lessonIdOf,
  occurrences,
  planningWindow,
  planSteps,
  type ExistingLesson,
  type Occurrence,
  type PlannableSchedule,
} from './planner.js';

// Runs under the `unit` project and again under `unit-tokyo` (host TZ Asia/Tokyo): same answers.
const monThu: PlannableSchedule = {
  id: '11111111-1111-4111-8111-111111111111',
  timezone: 'Europe/London',
  weekdays: [1, 4],
  localStart: '09:30',
  durationMinutes: 60,
  intervalWeeks: 1,
  validFrom: '2026-03-01',
  validUntil: null,
  exceptions: [],
};

const existing = (o: Occurrence, patch: Partial<ExistingLesson> = {}): ExistingLesson => ({
  id: o.lessonId,
  status: 'planned',
  detached: false,
  localDate: o.localDate,
  teacherId: 'teacher-1',
  startsAt: o.startsAt,
  durationMinutes: 60,
  timezone: 'Europe/London',
  ...patch,
});
const rule = { teacherId: 'teacher-1', durationMinutes: 60, timezone: 'Europe/London' };

describe(`lesson planner (host TZ ${process.env.TZ ?? 'unset'})`, () => {
  it('plans Mon+Thu 09:30 London across both 2026 clock changes at the right UTC instants', () => {
    const series = occurrences(monThu, { from: '2026-03-19', to: '2026-11-02' });
    const at = Object.fromEntries(series.map((o) => [o.localDate, o.startsAt]));
    expect(at['2026-03-19']).toBe('2026-03-19T09:30:00.000Z');
    expect(at['2026-03-23']).toBe('2026-03-23T09:30:00.000Z');
    expect(at['2026-03-26']).toBe('2026-03-26T09:30:00.000Z');
    expect(at['2026-03-30']).toBe('2026-03-30T08:30:00.000Z');
    expect(at['2026-10-22']).toBe('2026-10-22T08:30:00.000Z');
    expect(at['2026-10-26']).toBe('2026-10-26T09:30:00.000Z');
    expect(at['2026-10-29']).toBe('2026-10-29T09:30:00.000Z');
    expect(at['2026-11-02']).toBe('2026-11-02T09:30:00.000Z');
    expect(series.every((o) => o.localStart === '09:30' && !o.shifted)).toBe(true);
    expect(
      series.every((o) => new Date(o.endsAt).getTime() - new Date(o.startsAt).getTime() === 3_600_000),
    ).toBe(true);
    expect(new Set(series.map((o) => o.localDate.slice(0, 10))).size).toBe(series.length);
  });

  it('gives each occurrence a deterministic id: planning twice yields the same lessons', () => {
    const window = { from: '2026-04-01', to: '2026-04-30' };
    const first = occurrences(monThu, window);
    const second = occurrences(monThu, window);
    expect(second).toEqual(first);
    expect(first[0]!.lessonId).toBe(lessonIdOf(monThu.id, '2026-04-02', '09:30'));
    expect(first[0]!.lessonId).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    // the second pass over what the first created plans nothing
    expect(
      planSteps(
        second,
        first.map((o) => existing(o)),
        rule,
        window,
      ),
    ).toEqual([]);
  });

  it('keeps every other week from the week of valid_from', () => {
    const fortnightly = { ...monThu, weekdays: [3], intervalWeeks: 2, validFrom: '2026-09-02' };
    expect(
      occurrences(fortnightly, { from: '2026-09-01', to: '2026-10-01' }).map((o) => o.localDate),
    ).toEqual(['2026-09-02', '2026-09-16', '2026-09-30']);
  });

  it('skips closures, days outside terms and skipped dates, and moves a moved date', () => {
    const schedule = {
      ...monThu,
      exceptions: [
        { localDate: '2026-04-20', action: 'skip' as const, newLocalStart: null },
        { localDate: '2026-04-23', action: 'move' as const, newLocalStart: '14:00' },
      ],
    };
    const days = {
      terms: [{ first_day: '2026-04-13', last_day: '2026-05-22' }],
      closures: ['2026-04-16'],
    };
    const got = occurrences(schedule, { from: '2026-04-06', to: '2026-04-30' }, days);
    expect(got.map((o) => [o.localDate, o.localStart])).toEqual([
      ['2026-04-13', '09:30'],
      ['2026-04-23', '14:00'],
      ['2026-04-27', '09:30'],
      ['2026-04-30', '09:30'],
    ]);
    // the moved lesson keeps its slot's id
    expect(got[1]!.lessonId).toBe(lessonIdOf(monThu.id, '2026-04-23', '09:30'));
    expect(got[1]!.startsAt).toBe('2026-04-23T13:00:00.000Z');
  });

  it('resolves a start in the spring-forward gap forward and flags it', () => {
    const sunday = { ...monThu, weekdays: [7], localStart: '01:30' };
    const [o] = occurrences(sunday, { from: '2026-03-29', to: '2026-03-29' });
    expect(o).toMatchObject({
      localStart: '02:30',
      slotStart: '01:30',
      shifted: true,
      startsAt: '2026-03-29T01:30:00.000Z',
    });
  });

  it('plans from max(valid_from, today) to min(valid_until, programme end, today + 26 weeks)', () => {
    expect(planningWindow(monThu, '2026-11-25', null)).toEqual({ from: '2026-11-25', to: '2027-05-26' });
    expect(
      planningWindow({ validFrom: '2026-12-01', validUntil: '2027-01-31' }, '2026-11-25', '2027-01-15'),
    ).toEqual({ from: '2026-12-01', to: '2027-01-15' });
    expect(
      planningWindow({ validFrom: '2026-01-01', validUntil: '2026-06-30' }, '2026-11-25', null),
    ).toBeNull();
    // the horizon counts from today, also when planning starts later (the programme starts next month)
    // or earlier (a timetable entered after it started)
    expect(planningWindow(monThu, '2026-11-25', null, 26, '2026-12-14')).toEqual({
      from: '2026-12-14',
      to: '2027-05-26',
    });
    expect(planningWindow(monThu, '2026-11-25', null, 26, '2026-10-28')).toEqual({
      from: '2026-10-28',
      to: '2027-05-26',
    });
  });

  it('on a rule change unschedules planned lessons it no longer produces and never touches delivered, cancelled or detached ones', () => {
    const window = { from: '2026-04-01', to: '2026-04-30' };
    const before = occurrences(monThu, window); // Mon + Thu
    const stored = before.map((o, i) =>
      existing(
        o,
        i === 0
          ? { status: 'delivered' }
          : i === 1
            ? { status: 'cancelled' }
            : i === 2
              ? { detached: true }
              : {},
      ),
    );
    const mondaysOnly = occurrences({ ...monThu, weekdays: [1] }, window);
    const steps = planSteps(mondaysOnly, stored, rule, window);
    const thursdays = before.filter((o) => o.localDate && new Date(o.localDate).getUTCDay() === 4);
    const touchable = thursdays.filter((o) => ![before[0], before[1], before[2]].includes(o));
    expect(
      steps
        .filter((s) => s.kind === 'unschedule')
        .map((s) => (s as { lessonId: string }).lessonId)
        .sort(),
    ).toEqual(touchable.map((o) => o.lessonId).sort());
    expect(steps.some((s) => s.kind === 'plan' || s.kind === 'change')).toBe(false);
  });

  it('moves planned undetached lessons when the duration or teacher changes, and re-plans an unscheduled one', () => {
    const window = { from: '2026-04-01', to: '2026-04-10' };
    const wanted = occurrences({ ...monThu, durationMinutes: 90 }, window);
    const stored = wanted.map((o, i) =>
      existing(o, i === 0 ? { status: 'unscheduled' } : i === 1 ? { detached: true } : {}),
    );
    const steps = planSteps(wanted, stored, { ...rule, durationMinutes: 90 }, window);
    expect(steps.map((s) => s.kind)).toEqual(['plan', 'change']);
  });

  it('leaves lessons before the window alone', () => {
    const old = occurrences(monThu, { from: '2026-03-01', to: '2026-03-10' });
    expect(
      planSteps(
        [],
        old.map((o) => existing(o)),
        rule,
        { from: '2026-04-01', to: '2026-04-30' },
      ),
    ).toEqual([]);
  });
});
