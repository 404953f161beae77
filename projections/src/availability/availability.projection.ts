import { defineProjection } from '../projection.js';

/**
 * Users' availability (spec §3 "Availability: list of availabilities per user, keyed by user and
 * type"), in `user-availability-{userId}` streams. Each set replaces the list for one key: the type,
 * and either the recurring week (`week` null) or one week starting on the given Monday
 * (docs/decisions/0017).
 */
export interface AvailabilitySlot {
  /** 0 = Monday … 6 = Sunday. */
  dayOfWeek: number;
  /** Minutes after midnight in the user's timezone, within the working day (420–1260). */
  startMinute: number;
  endMinute: number;
}

export interface AvailabilitySetData {
  userId: string;
  type: string;
  /** Monday (yyyy-MM-dd) of the week this list is for; null for the recurring week. */
  week: string | null;
  availabilities: AvailabilitySlot[];
}

export type AvailabilityEvent = { type: 'AvailabilitySet'; data: AvailabilitySetData };

export const AVAILABILITY_EVENT_TYPES: readonly AvailabilityEvent['type'][] = ['AvailabilitySet'];

export const availabilityStream = (userId: string) => `user-availability-${userId}`;

export interface AvailabilityRow {
  user_id: string;
  type: string;
  /** '' for the recurring week. */
  week: string;
  availabilities: AvailabilitySlot[];
  updated_at: Date;
  version: string;
}

export const availabilityProjection = defineProjection<AvailabilityEvent>()({
  name: 'user-availability',
  version: 1,
  tables: ['rm_user_availability'],
  schema: [
    `CREATE TABLE IF NOT EXISTS rm_user_availability (
       user_id        uuid NOT NULL,
       type           text NOT NULL,
       week           text NOT NULL,
       availabilities jsonb NOT NULL,
       updated_at     timestamptz NOT NULL,
       version        bigint NOT NULL,
       PRIMARY KEY (user_id, type, week)
     )`,
  ],
  handles: AVAILABILITY_EVENT_TYPES,
  async apply(e, tx) {
    // The row keeps the stream revision that wrote it: replaying an older event changes nothing.
    await tx.query(
      `INSERT INTO rm_user_availability (user_id, type, week, availabilities, updated_at, version)
       VALUES ($1, $2, $3, $4::jsonb, $5, $6::bigint)
       ON CONFLICT (user_id, type, week) DO UPDATE
         SET availabilities = EXCLUDED.availabilities, updated_at = EXCLUDED.updated_at,
             version = EXCLUDED.version
       WHERE rm_user_availability.version < EXCLUDED.version`,
      [
        e.data.userId,
        e.data.type,
        e.data.week ?? '',
        JSON.stringify(e.data.availabilities),
        e.metadata.occurredAt,
        e.revision.toString(),
      ],
    );
  },
});
