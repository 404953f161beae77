import { programmesDemo } from './programmes-demo.js';
import { lessonsDemo } from './lessons-demo.js';
import { coverDemo } from './cover-demo.js';
import { availabilityDemo } from './availability-demo.js';
import { attendanceDemo } from './attendance-demo.js';

/**
 * The teaching part of the demo data (issue 15): reference data, programmes, groups, enrolments, term
 * calendars, schedules and lessons. Each area adds one `DemoPart` to `TEACHING_DEMO` (in its own file
 * under `server/src/demo/`), seeded in order after the people exist, through the portal's HTTP API.
 */

import { referenceDemo } from './reference-demo.js';
import { reportsDemo } from './reports-demo.js';

export interface DemoAnswer {
  status: number;
  body: Record<string, unknown>;
}

/** One call to the portal's API as the first administrator; throws on a status of 300 or more. */
export type DemoCall = (method: string, path: string, body?: unknown) => Promise<DemoAnswer>;

/** What the earlier demo stages made, by key, for the teaching parts to build on. */
export interface DemoWorld {
  /** Network key (`england`, `spain`) → id. */
  networks: Record<string, string>;
  /** School key (`oakfield`, `riverside`, `sthilda`) → customer id. */
  customers: Record<string, string>;
  /** `{school key}:{customer role}` → the partner user's id. */
  partnerIds: Record<string, string>;
  /** School key → its students' ids, in creation order. */
  studentsOf: Record<string, string[]>;
  /** The ten demo teachers' ids, in creation order (index 7 has a quality issue). */
  teacherIds: string[];
  /** Ids the teaching parts hand on to the parts after them (e.g. `subject:Maths` → id). */
  teaching: Record<string, string>;
  /** Calls as another demo person (their own session, ended when the seed ends); absent in some tests. */
  callAs?: (userId: string) => Promise<DemoCall>;
}

export interface DemoPart {
  name: string;
  seed(call: DemoCall, world: DemoWorld): Promise<void>;
}

/** The teaching parts, in the order they are seeded (schedules and lessons last). */
export const TEACHING_DEMO: DemoPart[] = [
  referenceDemo,
  programmesDemo,
  lessonsDemo,
  coverDemo,
  availabilityDemo,
  attendanceDemo,
  reportsDemo,
];
