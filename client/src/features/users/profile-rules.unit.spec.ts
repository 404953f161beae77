import { describe, expect, it } from '@jest/globals';
import {
  addWeeks,
  formatBytes,
  minutesToTime,
  mondayOf,
  slotProblem,
  sortSlots,
  timeToMinutes,
  uploadProblem,
} from './profile-rules';

describe('availability times', () => {
  it.each([
    [420, '07:00'],
    [450, '07:30'],
    [1260, '21:00'],
    [5, '00:05'],
  ])('%i minutes read %s, and back', (minutes, text) => {
    expect(minutesToTime(minutes)).toBe(text);
    expect(timeToMinutes(text)).toBe(minutes);
  });

  it.each(['7', '07:60', '25:00', 'ab:cd', ''])('%p is not a time of day', (text) => {
    expect(timeToMinutes(text)).toBeNull();
  });
});

describe('slotProblem', () => {
  const monday9to10 = { day_of_week: 0, start_minute: 540, end_minute: 600 };

  it('accepts a slot inside the working day that overlaps nothing', () => {
    expect(slotProblem({ day_of_week: 0, start_minute: 600, end_minute: 660 }, [monday9to10])).toBeNull();
    expect(slotProblem({ day_of_week: 1, start_minute: 540, end_minute: 600 }, [monday9to10])).toBeNull();
  });

  it('refuses times outside 07:00–21:00', () => {
    expect(slotProblem({ day_of_week: 0, start_minute: 400, end_minute: 500 }, [])).toMatch(/07:00–21:00/);
    expect(slotProblem({ day_of_week: 0, start_minute: 1200, end_minute: 1290 }, [])).toMatch(/working day/);
  });

  it('refuses an end at or before the start', () => {
    expect(slotProblem({ day_of_week: 2, start_minute: 600, end_minute: 600 }, [])).toMatch(/before the end/);
  });

  it('names the slot it overlaps on the same day', () => {
    expect(slotProblem({ day_of_week: 0, start_minute: 570, end_minute: 630 }, [monday9to10])).toBe(
      'Overlaps Monday 09:00–10:00.',
    );
  });

  it('sorts Monday first, then by start', () => {
    const sorted = sortSlots([
      { day_of_week: 4, start_minute: 420, end_minute: 480 },
      { day_of_week: 0, start_minute: 600, end_minute: 660 },
      monday9to10,
    ]);
    expect(sorted.map((s) => [s.day_of_week, s.start_minute])).toEqual([
      [0, 540],
      [0, 600],
      [4, 420],
    ]);
  });
});

describe('weeks', () => {
  it('finds the Monday of any day, Sunday belonging to the week before', () => {
    expect(mondayOf(new Date(2026, 10, 24))).toBe('2026-11-23'); // a Tuesday
    expect(mondayOf(new Date(2026, 10, 23))).toBe('2026-11-23'); // the Monday itself
    expect(mondayOf(new Date(2026, 10, 29))).toBe('2026-11-23'); // the Sunday
  });

  it('moves by whole weeks across a month and a year end', () => {
    expect(addWeeks('2026-12-28', 1)).toBe('2027-01-04');
    expect(addWeeks('2026-11-02', -1)).toBe('2026-10-26');
  });
});

describe('files', () => {
  it('formats sizes', () => {
    expect(formatBytes(900)).toBe('900 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(5 * 1024 * 1024)).toBe('5.0 MB');
  });

  it('refuses empty, oversized and unsupported files before uploading', () => {
    expect(uploadProblem({ name: 'a.pdf', size: 10, type: 'application/pdf' })).toBeNull();
    expect(uploadProblem({ name: 'a.pdf', size: 0, type: 'application/pdf' })).toMatch(/empty/);
    expect(uploadProblem({ name: 'big.pdf', size: 101 * 1024 * 1024, type: 'application/pdf' })).toMatch(
      /100 MB/,
    );
    expect(uploadProblem({ name: 'run.exe', size: 10, type: 'application/x-msdownload' })).toMatch(
      /not a PDF/,
    );
  });
});
