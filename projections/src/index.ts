export * from './projection.js';
export * from './live-contract.js';
export * from './users/users.projection.js';
export * from './permission-audit/permission-audit.projection.js';
export * from './customers/customers.projection.js';
export * from './users/student-activity.projection.js';

import { usersProjection } from './users/users.projection.js';
import { permissionAuditProjection } from './permission-audit/permission-audit.projection.js';
import { customersProjection } from './customers/customers.projection.js';
import { studentActivityProjection } from './users/student-activity.projection.js';
import type { Projection } from './projection.js';

/** Every read model the portal maintains, in the order they are created. */
export const allProjections: readonly Projection[] = [
  usersProjection,
  permissionAuditProjection,
  customersProjection,
  studentActivityProjection,
];
