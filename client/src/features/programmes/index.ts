import { lazy } from 'react';
import { screen, type Feature } from '../../shared/routing/screens';
import { enrolments, groups, programmes as resource } from './api';

const ProgrammesPage = lazy(() =>
  import('./pages/ProgrammesPage').then((m) => ({ default: m.ProgrammesPage })),
);
const ProgrammeStatisticsPage = lazy(() =>
  import('./pages/ProgrammeStatisticsPage').then((m) => ({ default: m.ProgrammeStatisticsPage })),
);
const ProgrammeDetailsPage = lazy(() =>
  import('./pages/ProgrammeDetailsPage').then((m) => ({ default: m.ProgrammeDetailsPage })),
);
const ProgrammeAddPage = lazy(() =>
  import('./pages/ProgrammeAddPage').then((m) => ({ default: m.ProgrammeAddPage })),
);
const GroupAddPage = lazy(() => import('./pages/GroupAddPage').then((m) => ({ default: m.GroupAddPage })));
const GroupPage = lazy(() => import('./pages/GroupPage').then((m) => ({ default: m.GroupPage })));
const GroupsPage = lazy(() => import('./pages/GroupsPage').then((m) => ({ default: m.GroupsPage })));
const EnrolmentsPage = lazy(() =>
  import('./pages/EnrolmentsPage').then((m) => ({ default: m.EnrolmentsPage })),
);
const UserEnrolmentPage = lazy(() =>
  import('./pages/UserEnrolmentPage').then((m) => ({ default: m.UserEnrolmentPage })),
);
const MyStudentsPage = lazy(() =>
  import('./pages/MyStudentsPage').then((m) => ({ default: m.MyStudentsPage })),
);

/** Programmes, groups and enrolments (issue 15 items 3 and 4; docs/decisions/0051). */
export const programmes: Feature = {
  screens: {
    programmes: screen(ProgrammesPage, {}, 'all'),
    'my-programmes': screen(ProgrammesPage, { mine: true }, 'mine'),
    'programmes/statistics': screen(ProgrammeStatisticsPage),
    'programmes/details/:id': screen(ProgrammeDetailsPage),
    'programmes/add': screen(ProgrammeAddPage),
    'programmes/:id/groups/add': screen(GroupAddPage),
    groups: screen(GroupsPage),
    'groups/:id': screen(GroupPage),
    enrolments: screen(EnrolmentsPage),
    'users/:id/enrolment': screen(UserEnrolmentPage),
    'my-students': screen(MyStudentsPage, { title: 'My students' }, 'my'),
    'teacher-my-students': screen(MyStudentsPage, { title: "Teacher's students" }, 'teacher'),
  },
  liveRoots: { programme: resource.root, group: groups.root, enrolment: enrolments.root },
};
