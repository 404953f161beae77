import { describe, expect, it } from '@jest/globals';
import { availableIntervals, subtractIntervals, teacherWeek } from './teacher-grid.js';

const LONDON = 'Europe/London';
const at = (iso: string) => new Date(iso).toISOString();

describe('teachers grid arithmetic', () => {
  it('turns a teacher’s slots into instants in their own zone, across the October clock change', () => {
    // Week of Monday 19 Oct 2026: Monday is BST (UTC+1), Sunday 25 Oct is GMT after 02:00.
    const slots = [
      { dayOfWeek: 0, startMinute: 9 * 60, endMinute: 12 * 60 },
      { dayOfWeek: 6, startMinute: 9 * 60, endMinute: 10 * 60 },
    ];
    expect(availableIntervals('2026-10-19', LONDON, slots)).toEqual([
      { starts_at: at('2026-10-19T08:00:00Z'), ends_at: at('2026-10-19T11:00:00Z') },
      { starts_at: at('2026-10-25T09:00:00Z'), ends_at: at('2026-10-25T10:00:00Z') },
    ]);
    // The same wall-clock slot for a teacher in Tokyo is nine hours earlier in UTC.
    expect(availableIntervals('2026-10-19', 'Asia/Tokyo', [slots[0]!])).toEqual([
      { starts_at: at('2026-10-19T00:00:00Z'), ends_at: at('2026-10-19T03:00:00Z') },
    ]);
  });

  it('joins overlapping slots and leaves out empty ones', () => {
    const slots = [
      { dayOfWeek: 1, startMinute: 600, endMinute: 720 },
      { dayOfWeek: 1, startMinute: 660, endMinute: 780 },
      { dayOfWeek: 2, startMinute: 600, endMinute: 600 },
    ];
    expect(availableIntervals('2026-01-05', 'UTC', slots)).toEqual([
      { starts_at: at('2026-01-06T10:00:00Z'), ends_at: at('2026-01-06T13:00:00Z') },
    ]);
  });

  it('free time is availability minus lessons, with lessons touching the edges', () => {
    const free = subtractIntervals(
      [{ starts_at: at('2026-01-05T09:00:00Z'), ends_at: at('2026-01-05T13:00:00Z') }],
      [
        { starts_at: at('2026-01-05T08:30:00Z'), ends_at: at('2026-01-05T09:30:00Z') },
        { starts_at: at('2026-01-05T10:00:00Z'), ends_at: at('2026-01-05T11:00:00Z') },
        { starts_at: at('2026-01-05T12:00:00Z'), ends_at: at('2026-01-05T13:00:00Z') },
      ],
    );
    expect(free).toEqual([
      { starts_at: at('2026-01-05T09:30:00Z'), ends_at: at('2026-01-05T10:00:00Z') },
      { starts_at: at('2026-01-05T11:00:00Z'), ends_at: at('2026-01-05T12:00:00Z') },
    ]);
  });

  it('flags lessons outside availability and names overlapping lessons as clashes', () => {
    const week = teacherWeek(
      '2026-01-05',
      LONDON,
      [{ dayOfWeek: 0, startMinute: 9 * 60, endMinute: 12 * 60 }],
      [
        { id: 'inside', starts_at: at('2026-01-05T09:00:00Z'), ends_at: at('2026-01-05T10:00:00Z') },
        { id: 'straddles', starts_at: at('2026-01-05T11:30:00Z'), ends_at: at('2026-01-05T12:30:00Z') },
        { id: 'overlaps', starts_at: at('2026-01-05T12:00:00Z'), ends_at: at('2026-01-05T13:00:00Z') },
      ],
    );
    expect([...week.outsideAvailability].sort()).toEqual(['overlaps', 'straddles']);
    expect([...week.clashes].sort()).toEqual(['overlaps', 'straddles']);
    expect(week.free).toEqual([
      { starts_at: at('2026-01-05T10:00:00Z'), ends_at: at('2026-01-05T11:30:00Z') },
    ]);
  });

  it('a teacher without availability has no free slots and no lesson flagged as outside it', () => {
    const week = teacherWeek('2026-01-05', LONDON, null, [
      { id: 'a', starts_at: at('2026-01-05T09:00:00Z'), ends_at: at('2026-01-05T10:00:00Z') },
    ]);
    expect(week.free).toEqual([]);
    expect(week.outsideAvailability.size).toBe(0);
  });
});
