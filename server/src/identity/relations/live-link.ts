/** Moved to the student scope (decision 0046); kept as the links' import path. */
export { LIVE_LINK, linkedStudentIdsSql } from '../../core/access/student-scope.js';
