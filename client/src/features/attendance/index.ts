import { lazy } from 'react';
import { screen, type Feature } from '../../shared/routing/screens';

const AttendancePage = lazy(() =>
  import('./pages/AttendancePage').then((m) => ({ default: m.AttendancePage })),
);

/**
 * Attendance (decision 0056): the day's board for staff and the school's live view for partners on
 * `attendance`; the register itself sits on `lessons/:id` (features/lessons). Register events are
 * lesson events, so their queries live under the `lessons` root; planned absences have their own.
 */
export const attendance: Feature = {
  screens: { attendance: screen(AttendancePage) },
  liveRoots: { plannedAbsence: 'planned-absences' },
};
