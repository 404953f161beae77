import type { AbsenceReason, AttendanceMark } from './attendance-events.js';

/**
 * The DfE attendance code sets as versioned data (decision 0056; design brief §2). The school owns the
 * statutory code; a register entry carries only the code we *suggest* for the commissioning school's
 * register, from the set in force on the lesson's local date. The 2024 regulations (in force from
 * 19 August 2024) replaced the 2006 set; old registers keep the old codes.
 */

export type CodeCategory =
  | 'present'
  | 'approved_educational_activity'
  | 'authorised_absence'
  | 'unauthorised_absence'
  | 'not_possible'
  | 'administrative';

export interface AttendanceCode {
  code: string;
  meaning: string;
  category: CodeCategory;
}

export interface AttendanceCodeSet {
  version: string;
  /** First local date the set is in force (inclusive). */
  validFrom: string;
  /** Last local date (inclusive), null while in force. */
  validUntil: string | null;
  codes: AttendanceCode[];
  /** The suggested code per mark, and per absence reason for `absent`. */
  forMark: Partial<Record<AttendanceMark, string>>;
  forReason: Record<AbsenceReason, string>;
}

const c = (code: string, category: CodeCategory, meaning: string): AttendanceCode => ({
  code,
  meaning,
  category,
});

export const CODE_SET_2024: AttendanceCodeSet = {
  version: '2024',
  validFrom: '2024-08-19',
  validUntil: null,
  codes: [
    c('/', 'present', 'Present (AM)'),
    c('\\', 'present', 'Present (PM)'),
    c('L', 'present', 'Late arrival before the register closed'),
    c('K', 'approved_educational_activity', 'Attending education provision arranged by the local authority'),
    c('V', 'approved_educational_activity', 'Attending an educational visit or trip'),
    c('P', 'approved_educational_activity', 'Participating in a sporting activity'),
    c('W', 'approved_educational_activity', 'Attending work experience'),
    c('B', 'approved_educational_activity', 'Attending any other approved educational activity'),
    c('D', 'approved_educational_activity', 'Dual registered (at another school)'),
    c('C1', 'authorised_absence', 'Leave of absence: regulated performance or employment abroad'),
    c('M', 'authorised_absence', 'Leave of absence: medical or dental appointment'),
    c('J1', 'authorised_absence', 'Leave of absence: interview'),
    c('S', 'authorised_absence', 'Leave of absence: study leave'),
    c('X', 'not_possible', 'Non-compulsory school age pupil not required to attend'),
    c('C2', 'authorised_absence', 'Leave of absence: part-time timetable'),
    c('C', 'authorised_absence', 'Leave of absence: exceptional circumstances'),
    c('T', 'authorised_absence', 'Parent travelling for occupational purposes'),
    c('R', 'authorised_absence', 'Religious observance'),
    c('I', 'authorised_absence', 'Illness (not medical or dental appointment)'),
    c('E', 'authorised_absence', 'Suspended or permanently excluded'),
    c('Q', 'not_possible', 'Unable to attend: lack of access arrangements'),
    c('Y1', 'not_possible', 'Unable to attend: transport not available'),
    c('Y2', 'not_possible', 'Unable to attend: widespread disruption to travel'),
    c('Y3', 'not_possible', 'Unable to attend: part of the school premises closed'),
    c('Y4', 'not_possible', 'Unable to attend: whole school site unexpectedly closed'),
    c('Y5', 'not_possible', 'Unable to attend: criminal justice detention'),
    c('Y6', 'not_possible', 'Unable to attend: public health guidance or law'),
    c('Y7', 'not_possible', 'Unable to attend: any other unavoidable cause'),
    c('G', 'unauthorised_absence', 'Holiday not granted by the school'),
    c('N', 'unauthorised_absence', 'Reason for absence not yet established'),
    c('O', 'unauthorised_absence', 'Absent in other or unknown circumstances'),
    c('U', 'unauthorised_absence', 'Arrived in school after the register closed'),
    c('Z', 'administrative', 'Prospective pupil not on admission register'),
    c('#', 'administrative', 'Planned whole or partial school closure'),
  ],
  forMark: {
    present: 'B',
    late: 'B',
    left_early: 'B',
    absent_pending: 'N',
    not_required: 'C2',
    tech_failure_pupil: 'N',
  },
  forReason: {
    illness: 'I',
    medical: 'M',
    religious: 'R',
    interview: 'J1',
    study_leave: 'S',
    excluded: 'E',
    authorised_other: 'C',
    unauthorised: 'O',
    holiday_not_agreed: 'G',
    unable_transport: 'Y1',
    on_site_at_school: '/',
  },
};

export const CODE_SET_2006: AttendanceCodeSet = {
  version: '2006',
  validFrom: '2006-09-01',
  validUntil: '2024-08-18',
  codes: [
    c('/', 'present', 'Present (AM)'),
    c('\\', 'present', 'Present (PM)'),
    c('L', 'present', 'Late (before registers closed)'),
    c('B', 'approved_educational_activity', 'Educated off site (not dual registration)'),
    c('D', 'approved_educational_activity', 'Dual registration'),
    c('J', 'approved_educational_activity', 'Interview'),
    c('P', 'approved_educational_activity', 'Approved sporting activity'),
    c('V', 'approved_educational_activity', 'Educational visit or trip'),
    c('W', 'approved_educational_activity', 'Work experience'),
    c('C', 'authorised_absence', 'Other authorised circumstances'),
    c('E', 'authorised_absence', 'Excluded (no alternative provision made)'),
    c('H', 'authorised_absence', 'Authorised family holiday'),
    c('I', 'authorised_absence', 'Illness (not medical or dental appointment)'),
    c('M', 'authorised_absence', 'Medical or dental appointment'),
    c('R', 'authorised_absence', 'Religious observance'),
    c('S', 'authorised_absence', 'Study leave'),
    c('T', 'authorised_absence', 'Gypsy, Roma and Traveller absence'),
    c('G', 'unauthorised_absence', 'Family holiday (not agreed or days in excess)'),
    c('N', 'unauthorised_absence', 'No reason yet provided for absence'),
    c('O', 'unauthorised_absence', 'Unauthorised absence not covered by any other code'),
    c('U', 'unauthorised_absence', 'Arrived in school after registers closed'),
    c('X', 'not_possible', 'Not required to be in school'),
    c('Y', 'not_possible', 'Unable to attend due to exceptional circumstances'),
    c('Z', 'administrative', 'Pupil not on admission register'),
    c('#', 'administrative', 'Planned whole-school closure'),
  ],
  forMark: {
    present: 'B',
    late: 'B',
    left_early: 'B',
    absent_pending: 'N',
    not_required: 'X',
    tech_failure_pupil: 'N',
  },
  forReason: {
    illness: 'I',
    medical: 'M',
    religious: 'R',
    interview: 'J',
    study_leave: 'S',
    excluded: 'E',
    authorised_other: 'C',
    unauthorised: 'O',
    holiday_not_agreed: 'G',
    unable_transport: 'Y',
    on_site_at_school: '/',
  },
};

/** Newest first. */
export const CODE_SETS: readonly AttendanceCodeSet[] = [CODE_SET_2024, CODE_SET_2006];

/** The set in force on a local date (yyyy-MM-dd); dates before the oldest set get the oldest. */
export function codeSetOn(localDate: string): AttendanceCodeSet {
  return CODE_SETS.find((s) => s.validFrom <= localDate) ?? CODE_SETS[CODE_SETS.length - 1]!;
}

/**
 * The code suggested to the school for a mark on a date: `absent` by its reason, the others by mark;
 * null where the school decides (a failure on the provider's side).
 */
export function suggestedCodeFor(
  mark: AttendanceMark,
  absenceReason: AbsenceReason | null,
  localDate: string,
): string | null {
  const set = codeSetOn(localDate);
  if (mark === 'absent') return absenceReason ? set.forReason[absenceReason] : set.forMark.absent_pending!;
  return set.forMark[mark] ?? null;
}
