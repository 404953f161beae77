import { lazy } from 'react';
import { screen, type Feature } from '../../shared/routing/screens';

const AttendancePage = lazy(() =>
  import('./pages/AttendancePage').then((m) => ({ default: m.AttendancePage })),
);
const AttendanceReportPage = lazy(() =>
  import('./pages/AttendanceReportPage').then((m) => ({ default: m.AttendanceReportPage })),
);

/**
 * Attendance (decision 0056): the day's board for staff and the school's live view for partners on
 * `attendance`; the register itself sits on `lessons/:id` (features/lessons). Register events are
 * lesson events, so their queries live under the `lessons` root; planned absences have their own.
 */
export const attendance: Feature = {
  screens: {
    attendance: screen(AttendancePage),
    'attendance/programmes': screen(AttendanceReportPage, { kind: 'programmes' }, 'programmes'),
    'attendance/groups': screen(AttendanceReportPage, { kind: 'groups' }, 'groups'),
    'attendance/tutors': screen(AttendanceReportPage, { kind: 'tutors' }, 'tutors'),
    'attendance/different-class': screen(
      AttendanceReportPage,
      { kind: 'different-class' },
      'different-class',
    ),
  },
  liveRoots: { plannedAbsence: 'planned-absences' },
};
