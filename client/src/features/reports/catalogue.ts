import type { Query } from '../../shared/api/client';

/** A filter a report takes besides its dates. */
export type ReportFilter =
  'customer' | 'customer_optional' | 'products' | 'subjects' | 'year_groups' | 'key_stages' | 'week';

export interface ReportDefinition {
  /** The `reports/:reportName` segment. */
  name: string;
  title: string;
  description: string;
  /** The file's path; `{customer}` is replaced by the chosen customer's id. */
  path: string;
  /** The names of the first/last-day parameters (the spec uses both spellings); null: no dates. */
  dates: [string, string] | null;
  filters: ReportFilter[];
  fallbackName: string;
}

/** The report files administrators download (spec §7 "Reports", decisions 0035 and 0058). */
export const REPORTS: readonly ReportDefinition[] = [
  {
    name: 'students-with-lessons',
    title: 'Students with lessons',
    description:
      'Each student with lessons in the period: school, programmes, lessons delivered and planned.',
    path: '/api/v1/users/students-with-lessons/report',
    dates: ['from_date', 'to_date'],
    filters: [],
    fallbackName: 'students-with-lessons.csv',
  },
  {
    name: 'students-by-keystage',
    title: 'Students by key stage',
    description: 'Students with delivered lessons per key stage and year group.',
    path: '/api/v1/users/students-by-keystage/report',
    dates: ['from_date', 'to_date'],
    filters: ['products', 'subjects', 'key_stages'],
    fallbackName: 'students-by-keystage.csv',
  },
  {
    name: 'source-of-education',
    title: 'Source of education',
    description:
      'Enrolments open in the period: the commissioning school, placement type, setting and reason.',
    path: '/api/v1/users/students/source-of-education/report',
    dates: ['from_date', 'to_date'],
    filters: [],
    fallbackName: 'source-of-education.csv',
  },
  {
    name: 'active-students',
    title: 'Active students',
    description: 'Active students per day (per month for long periods), for one school or all.',
    path: '/api/v1/users/students/count/active/report',
    dates: ['date_from', 'date_to'],
    filters: ['customer_optional'],
    fallbackName: 'active-students.csv',
  },
  {
    name: 'teachers-delivering-courses',
    title: 'Teachers delivering courses',
    description: 'Per teacher and programme: lessons delivered, with product, subject and key stage.',
    path: '/api/v1/users/teachers_delivering_courses/report',
    dates: ['from_date', 'to_date'],
    filters: ['products', 'subjects', 'year_groups'],
    fallbackName: 'teachers-delivering-courses.csv',
  },
  {
    name: 'teachers-for-customer',
    title: 'Teachers for a school',
    description: 'The teachers who deliver one school’s lessons in the period.',
    path: '/api/v1/users/teachers_for_customer/{customer}/report',
    dates: ['date_from', 'date_to'],
    filters: ['customer'],
    fallbackName: 'teachers-for-customer.csv',
  },
  {
    name: 'teachers-without-availability',
    title: 'Teachers without availability',
    description: 'Active teachers with no availability set for a week.',
    path: '/api/v1/users/teachers_without_availability_set/report',
    dates: null,
    filters: ['week'],
    fallbackName: 'teachers-without-availability.csv',
  },
];

export const reportNamed = (name: string | undefined): ReportDefinition | null =>
  REPORTS.find((r) => r.name === name) ?? null;

export interface ReportChoices {
  from: string | null;
  to: string | null;
  customerId: string | null;
  productIds: string[];
  subjectIds: string[];
  yearGroupIds: string[];
  keyStages: string[];
  week: string | null;
  excel: boolean;
}

/** What a report still needs before it can be downloaded (shown under the button), or null. */
export function missingChoice(report: ReportDefinition, c: ReportChoices): string | null {
  if (report.filters.includes('customer') && !c.customerId) return 'Choose a school first.';
  if (c.from && c.to && c.from > c.to) return 'The first day must be on or before the last day.';
  return null;
}

/** The download's path and query for the choices made (empty choices are left out). */
export function reportRequest(report: ReportDefinition, c: ReportChoices): { path: string; query: Query } {
  const path = report.path.replace('{customer}', encodeURIComponent(c.customerId ?? ''));
  const query: Query = { as_excel: c.excel || undefined };
  if (report.dates) {
    query[report.dates[0]] = c.from ?? undefined;
    query[report.dates[1]] = c.to ?? undefined;
  }
  const has = (f: ReportFilter) => report.filters.includes(f);
  if (has('customer_optional')) query.customer_id = c.customerId ?? undefined;
  if (has('products') && c.productIds.length) query.product_ids = c.productIds;
  if (has('subjects') && c.subjectIds.length) query.subject_ids = c.subjectIds;
  if (has('year_groups') && c.yearGroupIds.length) query.year_group_ids = c.yearGroupIds;
  if (has('key_stages') && c.keyStages.length) query.keystage_names = c.keyStages;
  if (has('week')) query.week = c.week ?? undefined;
  return { path, query };
}
