import { describe, expect, it } from '@jest/globals';
import { defaultRange, parseActivityReport, rangeProblem, summarise } from './activity';

describe('active students report', () => {
  it('reads the per-day CSV, BOM and CRLF included', () => {
    const csv = '\uFEFFday,active_students\r\n2026-09-01,3\r\n2026-09-02,5\r\n';
    expect(parseActivityReport(csv)).toEqual({
      bucket: 'day',
      rows: [
        { period: '2026-09-01', active: 3 },
        { period: '2026-09-02', active: 5 },
      ],
    });
  });

  it('reads the per-month CSV and refuses anything else', () => {
    expect(parseActivityReport('month,active_students\n2026-01,12\n').bucket).toBe('month');
    expect(() => parseActivityReport('<html>')).toThrow(/unexpected format/);
    expect(() => parseActivityReport('day,active_students\n2026-09-01,many\n')).toThrow(/unreadable line/);
  });

  it('summarises peak, low and mean', () => {
    expect(summarise([])).toBeNull();
    expect(summarise([{ active: 3 }, { active: 5 }, { active: 5 }])).toEqual({ peak: 5, low: 3, mean: 4.3 });
  });
});

describe('date range', () => {
  it('defaults to the 30 days up to today (UTC)', () => {
    expect(defaultRange(new Date('2026-09-30T23:30:00Z'))).toEqual({ from: '2026-09-01', to: '2026-09-30' });
  });

  it('refuses empty, reversed and over-long ranges', () => {
    expect(rangeProblem('2026-09-01', '2026-09-30')).toBeNull();
    expect(rangeProblem('', '2026-09-30')).toMatch(/start date/);
    expect(rangeProblem('2026-10-01', '2026-09-30')).toMatch(/on or before/);
    expect(rangeProblem('2010-01-01', '2026-09-30')).toMatch(/10 years/);
  });
});
