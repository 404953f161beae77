import { describe, expect, it } from '@jest/globals';
import {
  academicYearOf,
  addDays,
  clampToWorkingDay,
  instantOf,
  isoWeekday,
  isTimeZone,
  localOf,
  nextWorkingDayDeadline,
  weekStartOf,
} from './time.js';

// This file runs twice: under the `unit` project (host zone as CI sets it, UTC) and under
// `unit-tokyo` (TZ=Asia/Tokyo). Every answer below must be the same in both.
describe(`time kernel (host TZ ${process.env.TZ ?? 'unset'}, offset ${new Date(2026, 0, 1).getTimezoneOffset()})`, () => {
  it('converts wall-clock London time to the UTC instant in winter and summer', () => {
    expect(instantOf('2026-01-15', '09:30', 'Europe/London')).toEqual({
      instant: '2026-01-15T09:30:00.000Z',
      shifted: false,
      localTime: '09:30',
    });
    expect(instantOf('2026-07-15', '09:30', 'Europe/London').instant).toBe('2026-07-15T08:30:00.000Z');
    expect(instantOf('2026-07-15', '09:30', 'Asia/Tokyo').instant).toBe('2026-07-15T00:30:00.000Z');
  });

  it('resolves a time in the spring-forward gap forward and says it shifted', () => {
    expect(instantOf('2026-03-29', '01:30', 'Europe/London')).toEqual({
      instant: '2026-03-29T01:30:00.000Z',
      shifted: true,
      localTime: '02:30',
    });
  });

  it('takes the earlier instant for a time in the autumn overlap', () => {
    expect(instantOf('2026-10-25', '01:30', 'Europe/London')).toEqual({
      instant: '2026-10-25T00:30:00.000Z',
      shifted: false,
      localTime: '01:30',
    });
  });

  it('keeps Mon+Thu 09:30 London at 09:30 local across both 2026 clock changes', () => {
    const dates: string[] = [];
    for (let d = '2026-03-16'; d <= '2026-11-05'; d = addDays(d, 1)) {
      if ([1, 4].includes(isoWeekday(d))) dates.push(d);
    }
    const series = dates.map((d) => [d, instantOf(d, '09:30', 'Europe/London').instant]);
    const at = (d: string) => series.find(([date]) => date === d)?.[1];
    // GMT before 29 March
    expect(at('2026-03-16')).toBe('2026-03-16T09:30:00.000Z');
    expect(at('2026-03-26')).toBe('2026-03-26T09:30:00.000Z');
    // BST from Monday 30 March
    expect(at('2026-03-30')).toBe('2026-03-30T08:30:00.000Z');
    expect(at('2026-04-02')).toBe('2026-04-02T08:30:00.000Z');
    expect(at('2026-10-22')).toBe('2026-10-22T08:30:00.000Z');
    // GMT again from Monday 26 October
    expect(at('2026-10-26')).toBe('2026-10-26T09:30:00.000Z');
    expect(at('2026-11-05')).toBe('2026-11-05T09:30:00.000Z');
    // every occurrence reads back as 09:30 on its own date in London
    for (const [date, instant] of series) {
      expect(localOf(instant!, 'Europe/London')).toMatchObject({ localDate: date, localTime: '09:30' });
    }
    expect(series.filter(([, i]) => i!.endsWith('T08:30:00.000Z'))).toHaveLength(60);
  });

  it('reads an instant back as wall-clock time in any zone', () => {
    expect(localOf('2026-03-29T23:30:00.000Z', 'Europe/London')).toEqual({
      localDate: '2026-03-30',
      localTime: '00:30',
      isoWeekday: 1,
    });
    expect(localOf(new Date('2026-01-01T20:00:00Z'), 'Asia/Tokyo').localDate).toBe('2026-01-02');
  });

  it('knows IANA zones and refuses the rest', () => {
    expect(isTimeZone('Europe/London')).toBe(true);
    expect(isTimeZone('America/New_York')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(isTimeZone('+01:00')).toBe(false);
    expect(isTimeZone('')).toBe(false);
    expect(isTimeZone(7)).toBe(false);
  });

  it.each([
    ['2026-11-23', '2026-11-23'], // Monday
    ['2026-11-29', '2026-11-23'], // Sunday
    ['2026-11-26', '2026-11-23'],
    ['2027-01-01', '2026-12-28'], // across a year end
  ])('weekStartOf(%s) is Monday %s', (date, monday) => {
    expect(weekStartOf(date)).toBe(monday);
  });

  it('adds days across month, leap-day and clock changes', () => {
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-03-28', 2)).toBe('2026-03-30');
    expect(addDays('2026-01-01', -1)).toBe('2025-12-31');
  });

  it('starts the academic year on 1 September', () => {
    expect(academicYearOf('2026-08-31')).toMatchObject({ startYear: 2025, label: '2025/26' });
    expect(academicYearOf('2026-09-01')).toMatchObject({
      startYear: 2026,
      firstDay: '2026-09-01',
      lastDay: '2027-08-31',
      label: '2026/27',
    });
  });

  it.each([
    ['Monday', '2026-11-23T10:00:00Z', '2026-11-24T23:59:59.999Z'],
    ['Thursday', '2026-11-26T10:00:00Z', '2026-11-27T23:59:59.999Z'],
    ['Friday', '2026-11-27T10:00:00Z', '2026-11-30T23:59:59.999Z'],
    ['Saturday', '2026-11-28T10:00:00Z', '2026-11-30T23:59:59.999Z'],
    ['Sunday', '2026-11-29T10:00:00Z', '2026-11-30T23:59:59.999Z'],
    // a Friday lesson in BST whose Monday deadline is still BST (end of Monday = 22:59:59.999Z)
    ['Friday in summer', '2026-07-03T09:00:00Z', '2026-07-06T22:59:59.999Z'],
    // a Friday in BST whose next working day is after the clocks go back
    ['Friday before the clocks go back', '2026-10-23T09:00:00Z', '2026-10-26T23:59:59.999Z'],
  ])('a %s lesson may be amended until the end of the next working day', (_day, instant, deadline) => {
    expect(nextWorkingDayDeadline(instant, 'Europe/London')).toBe(deadline);
  });

  it('takes the weekday in the zone, not in UTC', () => {
    // 23:30 UTC on Thursday is already Friday in Tokyo: Friday's deadline is Monday, Tokyo time
    expect(nextWorkingDayDeadline('2026-11-26T23:30:00Z', 'Asia/Tokyo')).toBe('2026-11-30T14:59:59.999Z');
  });

  it('pins items outside 07:00–21:00 to the edge of the axis instead of dropping them', () => {
    expect(clampToWorkingDay(9 * 60, 60)).toEqual({
      start: 540,
      end: 600,
      pinnedStart: false,
      pinnedEnd: false,
    });
    expect(clampToWorkingDay(6 * 60, 120)).toEqual({
      start: 420,
      end: 480,
      pinnedStart: true,
      pinnedEnd: false,
    });
    expect(clampToWorkingDay(20 * 60 + 30, 60)).toEqual({
      start: 1230,
      end: 1260,
      pinnedStart: false,
      pinnedEnd: true,
    });
    expect(clampToWorkingDay(5 * 60, 30)).toMatchObject({ start: 420, end: 435, pinnedStart: true });
    expect(clampToWorkingDay(22 * 60, 30)).toMatchObject({ start: 1245, end: 1260, pinnedEnd: true });
  });
});
