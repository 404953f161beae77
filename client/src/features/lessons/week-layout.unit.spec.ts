import { describe, expect, it } from '@jest/globals';
import { addDaysTo, mondayOf, placeWeek } from './week-layout';

const lesson = (id: string, startsAt: string, minutes = 60) => ({
  id,
  startsAt,
  endsAt: new Date(Date.parse(startsAt) + minutes * 60_000).toISOString(),
});

describe('week view layout', () => {
  it('puts a lesson in its day and hour in the viewer’s zone', () => {
    const [placed] = placeWeek([lesson('a', '2026-11-30T09:30:00.000Z')], '2026-11-30', 'Europe/London');
    expect(placed).toMatchObject({ day: 0, start: '09:30', end: '10:30', top: 150, height: 60 });
    // the same lesson seen from Tokyo: 18:30 on Monday
    const [tokyo] = placeWeek([lesson('a', '2026-11-30T09:30:00.000Z')], '2026-11-30', 'Asia/Tokyo');
    expect(tokyo).toMatchObject({ day: 0, start: '18:30', top: 690 });
  });

  it('pins lessons outside 07:00–21:00 to the edge instead of dropping them', () => {
    const placed = placeWeek(
      [lesson('early', '2026-12-01T05:00:00.000Z'), lesson('late', '2026-12-02T21:30:00.000Z')],
      '2026-11-30',
      'Europe/London',
    );
    expect(placed.map((p) => [p.item.id, p.day, p.top, p.height, p.pinnedStart, p.pinnedEnd])).toEqual([
      ['early', 1, 0, 15, true, false],
      ['late', 2, 825, 15, true, true],
    ]);
  });

  it('leaves out lessons of other weeks, and moves across month ends', () => {
    expect(placeWeek([lesson('x', '2026-12-07T09:00:00.000Z')], '2026-11-30', 'Europe/London')).toEqual([]);
    expect(mondayOf('2026-12-03')).toBe('2026-11-30');
    expect(mondayOf('2026-11-30')).toBe('2026-11-30');
    expect(addDaysTo('2026-11-30', 7)).toBe('2026-12-07');
  });
});
