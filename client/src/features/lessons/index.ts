import { lazy } from 'react';
import { screen, type Feature } from '../../shared/routing/screens';
import { lessons as lessonsResource, schedules } from './api';

const MyLessonsPage = lazy(() => import('./pages/MyLessonsPage').then((m) => ({ default: m.MyLessonsPage })));
const LessonsPage = lazy(() => import('./pages/LessonsPage').then((m) => ({ default: m.LessonsPage })));
const LessonDetailsPage = lazy(() =>
  import('./pages/LessonDetailsPage').then((m) => ({ default: m.LessonDetailsPage })),
);
const TimetablePage = lazy(() => import('./pages/TimetablePage').then((m) => ({ default: m.TimetablePage })));
const TeachersTimetablePage = lazy(() =>
  import('./pages/TeachersTimetablePage').then((m) => ({ default: m.TeachersTimetablePage })),
);
const SchedulingPage = lazy(() =>
  import('./pages/SchedulingPage').then((m) => ({ default: m.SchedulingPage })),
);
const ScheduleDetailsPage = lazy(() =>
  import('./pages/ScheduleDetailsPage').then((m) => ({ default: m.ScheduleDetailsPage })),
);
const ProgrammeSchedulesPage = lazy(() =>
  import('./pages/ProgrammeSchedulesPage').then((m) => ({ default: m.ProgrammeSchedulesPage })),
);

/** Lessons, the week views and programme schedules (decision 0053). */
export const lessons: Feature = {
  screens: {
    'my-lessons': screen(MyLessonsPage),
    lessons: screen(LessonsPage),
    'lessons/:id': screen(LessonDetailsPage),
    'lessons/:id/details': screen(LessonDetailsPage),
    'timetable/:id?': screen(TimetablePage),
    'timetables/teachers': screen(TeachersTimetablePage),
    'programmes/:id/schedules': screen(ProgrammeSchedulesPage),
    scheduling: screen(SchedulingPage),
    'scheduling/:id': screen(ScheduleDetailsPage),
  },
  liveRoots: { lesson: lessonsResource.root, schedule: schedules.root },
};
