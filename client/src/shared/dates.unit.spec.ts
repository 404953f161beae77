import { describe, expect, it } from '@jest/globals';
import { datedFilename, formatDay, formatInZone } from './dates';

describe('datedFilename', () => {
  // 23:30 on 25 November in London is already 26 November in Tokyo.
  const lateEvening = new Date('2026-11-25T23:30:00Z');

  it("adds the day in the user's timezone before the extension of a table file", () => {
    expect(datedFilename('students.csv', 'Europe/London', lateEvening)).toBe('students-2026-11-25.csv');
    expect(datedFilename('students.csv', 'Asia/Tokyo', lateEvening)).toBe('students-2026-11-26.csv');
    expect(datedFilename('teachers.XLSX', 'Europe/London', lateEvening)).toBe('teachers-2026-11-25.XLSX');
  });

  it('leaves names that carry a day already, and files that are not tables', () => {
    expect(datedFilename('active-students-2026-09-01-2026-11-25.csv', 'Asia/Tokyo', lateEvening)).toBe(
      'active-students-2026-09-01-2026-11-25.csv',
    );
    expect(datedFilename('half-term-report-1-r2.pdf', 'Europe/London', lateEvening)).toBe(
      'half-term-report-1-r2.pdf',
    );
  });
});

describe('formatInZone', () => {
  it('shows dd.MM.yyyy HH:mm in the given timezone, N/A for nothing', () => {
    expect(formatInZone('2026-11-25T23:30:00Z', 'Asia/Tokyo')).toBe('26.11.2026 08:30');
    expect(formatInZone(null, 'Europe/London')).toBe('N/A');
  });
});

describe('formatDay', () => {
  it('shows a calendar day as dd.MM.yyyy without moving it across timezones', () => {
    expect(formatDay('2026-11-25')).toBe('25.11.2026');
    expect(formatDay(null)).toBe('—');
  });
});
