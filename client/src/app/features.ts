// The features the portal is built from: each `features/<area>/index.ts` gives its screens (route
// path → lazy page) and live roots. A new area is one line here; `router.tsx` does not change.
export { account } from '../features/account';
export { activity } from '../features/activity';
export { attendance } from '../features/attendance';
export { auth } from '../features/auth';
export { customFields } from '../features/custom-fields';
export { cover } from '../features/cover';
export { customers } from '../features/customers';
export { dashboard } from '../features/dashboard';
export { family } from '../features/family';
export { halfTermReports } from '../features/half-term-reports';
export { lessons } from '../features/lessons';
export { networks } from '../features/networks';
export { notifications } from '../features/notifications';
export { onePageProfiles } from '../features/one-page-profiles';
export { permissionTemplates } from '../features/permission-templates';
export { permissions } from '../features/permissions';
export { reference } from '../features/reference';
export { programmes } from '../features/programmes';
export { relations } from '../features/relations';
export { reports } from '../features/reports';
export { safeguarding } from '../features/safeguarding';
export { users } from '../features/users';
