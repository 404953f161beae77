import { describe, expect, it } from '@jest/globals';
import { missingChoice, reportNamed, reportRequest, type ReportChoices } from './catalogue';

const none: ReportChoices = {
  from: null,
  to: null,
  customerId: null,
  productIds: [],
  subjectIds: [],
  yearGroupIds: [],
  keyStages: [],
  week: null,
  excel: false,
};

describe('report catalogue', () => {
  it('builds each report’s own date parameter names and only the filters it takes', () => {
    const keyStages = reportNamed('students-by-keystage')!;
    expect(
      reportRequest(keyStages, {
        ...none,
        from: '2026-09-01',
        to: '2026-10-01',
        keyStages: ['KS3'],
        yearGroupIds: ['y'],
        excel: true,
      }),
    ).toEqual({
      path: '/api/v1/users/students-by-keystage/report',
      query: { as_excel: true, from_date: '2026-09-01', to_date: '2026-10-01', keystage_names: ['KS3'] },
    });
    const active = reportNamed('active-students')!;
    expect(reportRequest(active, { ...none, from: '2026-09-01', customerId: 'c1' }).query).toEqual({
      as_excel: undefined,
      date_from: '2026-09-01',
      date_to: undefined,
      customer_id: 'c1',
    });
  });

  it('puts the chosen school into the path of the per-school report and asks for one until chosen', () => {
    const forSchool = reportNamed('teachers-for-customer')!;
    expect(missingChoice(forSchool, none)).toBe('Choose a school first.');
    expect(reportRequest(forSchool, { ...none, customerId: 'a b' }).path).toBe(
      '/api/v1/users/teachers_for_customer/a%20b/report',
    );
    expect(
      missingChoice(forSchool, { ...none, customerId: 'x', from: '2026-10-02', to: '2026-10-01' }),
    ).toContain('on or before');
    expect(reportNamed('nope')).toBeNull();
  });
});
