import { describe, expect, it } from '@jest/globals';
import type { ReportState } from '@portal/projections';
import {
  documentMode,
  mayDiscardReports,
  mayLeadReview,
  mayManageAssignments,
  mayQaReview,
  reportAccess,
  seesAllAssignments,
  type ReportFacts,
} from './half-term-reports.policy.js';

const perms = (...p: string[]) => new Set(p);
const ADMIN = perms('USER_IS_ADMIN');
const TEACHER = perms('USER_IS_TEACHER');
const QA = perms('USER_IS_TEACHER', 'CAN_QA_REVIEW');
const LEAD = perms('USER_IS_TEACHER', 'CAN_QA_LEAD_REVIEW');
const MANAGER = perms('USER_IS_TEACHER', 'CAN_MANAGE_HALF_TERM_ASSIGNMENTS');
const HEAD = perms('USER_IS_PARTNER', 'PARTNER_CAN_SEE_ASSESSMENTS', 'PARTNER_CAN_SEE_ALL_STUDENTS_DETAILS');
const LINK = perms('USER_IS_PARTNER', 'PARTNER_CAN_SEE_ASSESSMENTS');

const row = (over: Partial<ReportFacts> = {}): ReportFacts => ({
  state: 'published',
  writer_ids: ['w'],
  qa_claimed_by: null,
  lead_claimed_by: null,
  customer_id: 'oak',
  published_revision: 1,
  released: true,
  ...over,
});
const actor = (userId: string, permissions: Set<string>, customerId: string | null = null) => ({
  userId,
  permissions,
  customerId,
});
const facts = { teachesProgramme: false, linkedToStudent: false };

describe('half-term report policy', () => {
  it('names the permission of each step (administrators hold the internal ones)', () => {
    expect(mayQaReview(QA)).toBe(true);
    expect(mayQaReview(TEACHER)).toBe(false);
    expect(mayLeadReview(QA)).toBe(false);
    expect(mayLeadReview(ADMIN)).toBe(true);
    expect(mayDiscardReports(perms('USER_IS_TEACHER', 'CAN_DISCARD_HALF_TERM_REPORTS'))).toBe(true);
    expect(mayDiscardReports(LEAD)).toBe(false);
    expect(mayManageAssignments(MANAGER)).toBe(true);
    expect(seesAllAssignments(MANAGER)).toBe(false);
    expect(seesAllAssignments(ADMIN)).toBe(true);
  });

  it('lets staff, writers and scoped managers read; other teachers and students get 404', () => {
    expect(reportAccess(actor('a', ADMIN), row(), facts)).toBe('staff');
    expect(reportAccess(actor('q', QA), row(), facts)).toBe('staff');
    expect(reportAccess(actor('w', TEACHER), row(), facts)).toBe('writer');
    expect(reportAccess(actor('x', TEACHER), row(), facts)).toBeNull();
    expect(reportAccess(actor('m', MANAGER), row(), { ...facts, teachesProgramme: true })).toBe('manager');
    expect(reportAccess(actor('m', MANAGER), row(), facts)).toBeNull();
    expect(reportAccess(actor('s', perms('USER_IS_STUDENT')), row(), facts)).toBeNull();
  });

  it('shows partners only their school’s published, released reports (selected students for link contacts)', () => {
    expect(reportAccess(actor('h', HEAD, 'oak'), row(), facts)).toBe('partner');
    expect(reportAccess(actor('h', HEAD, 'elm'), row(), facts)).toBeNull();
    expect(reportAccess(actor('h', HEAD, 'oak'), row({ released: false }), facts)).toBeNull();
    expect(
      reportAccess(
        actor('h', HEAD, 'oak'),
        row({ state: 'in_lead_review', published_revision: null }),
        facts,
      ),
    ).toBeNull();
    expect(reportAccess(actor('h', perms('USER_IS_PARTNER'), 'oak'), row(), facts)).toBeNull();
    expect(reportAccess(actor('l', LINK, 'oak'), row(), facts)).toBeNull();
    expect(reportAccess(actor('l', LINK, 'oak'), row(), { ...facts, linkedToStudent: true })).toBe('partner');
  });

  it.each<[ReportState, string, 'edit' | 'suggest' | 'view']>([
    ['draft', 'w', 'edit'],
    ['draft', 'q', 'view'],
    ['returned', 'w', 'edit'],
    ['submitted', 'w', 'view'],
    ['in_qa', 'q', 'edit'],
    ['in_qa', 'w', 'suggest'],
    ['in_qa', 'x', 'view'],
    ['qa_approved', 'q', 'view'],
    ['in_lead_review', 'l', 'edit'],
    ['in_lead_review', 'w', 'suggest'],
    ['in_lead_review', 'q', 'view'],
    ['published', 'w', 'view'],
    ['published', 'l', 'view'],
    ['discarded', 'w', 'view'],
  ])('live text in %s: %s may %s', (state, who, mode) => {
    const r = row({ state, qa_claimed_by: 'q', lead_claimed_by: 'l' });
    expect(documentMode(actor(who, TEACHER), r, 'staff')).toBe(mode);
  });

  it('never opens the live text to partners or to readers without access', () => {
    expect(documentMode(actor('h', HEAD), row(), 'partner')).toBeNull();
    expect(documentMode(actor('x', TEACHER), row(), null)).toBeNull();
  });
});
