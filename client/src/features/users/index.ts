import { lazy } from 'react';
import { screen, type Feature } from '../../shared/routing/screens';

const UsersListPage = lazy(() => import('./pages/UsersListPage'));
const UserDetailsPage = lazy(() => import('./pages/UserDetailsPage'));
const UserEditPage = lazy(() => import('./pages/UserEditPage'));
const UserAuditPage = lazy(() => import('./pages/UserAuditPage'));
const MyUsersPage = lazy(() => import('./pages/MyUsersPage'));
const MyUsersImportPage = lazy(() => import('./pages/MyUsersImportPage'));
const ImportUsersPage = lazy(() => import('./pages/ImportUsersPage'));

// Every users query sits under 'users' (`userKeys`); the tabs are keyed so each starts afresh.
export const users: Feature = {
  screens: {
    users: screen(UsersListPage, {}, 'all'),
    'users/students': screen(UsersListPage, { type: 'students' }, 'students'),
    'users/teachers': screen(UsersListPage, { type: 'teachers' }, 'teachers'),
    'users/partners': screen(UsersListPage, { type: 'partners' }, 'partners'),
    'users/admins': screen(UsersListPage, { type: 'admins' }, 'admins'),
    'users/:id/details': screen(UserDetailsPage),
    'users/:id': screen(UserEditPage),
    'users/:id/audit': screen(UserAuditPage),
    'my-users': screen(MyUsersPage),
    'my-users/import/:type': screen(MyUsersImportPage),
    'my-users/:id/details': screen(UserDetailsPage, { area: 'my-users' }),
    'my-users/:type/:id': screen(UserEditPage, { area: 'my-users' }),
    'users/import/:type': screen(ImportUsersPage),
  },
  liveRoots: { user: 'users', userAvailability: 'users', userCustomFields: 'users' },
};
