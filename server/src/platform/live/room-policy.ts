import { Injectable } from '@nestjs/common';
import { parseStream, type LiveSummaries, type StreamIdOf, type StreamKind } from '@portal/projections';
import type { RecordedEvent } from '../event-store/event-store.js';

/** What the live channel knows about a connected user when it derives their rooms. */
export interface LiveActor {
  userId: string;
  permissions: ReadonlySet<string>;
  /** For partner users: the customer (partner organisation) they belong to, when known. */
  customerId: string | null;
}

/** One room an event goes to, and what that room may see of it. */
export interface Delivery<Data = unknown> {
  room: string;
  data: Data;
}

/** Rooms a user joins, from their permissions (`user:{id}` is always added by the policy). */
export type RoomDeriver = (actor: LiveActor) => Iterable<string>;

/**
 * Who sees an event, and what each room sees. The first delivery wins for a socket that is in several
 * of the rooms: put the room that may see the most first.
 */
export type AudienceRule = (event: RecordedEvent) => readonly Delivery[];

/**
 * An audience rule for the streams of one kind; `id` is the stream's id (null for exact-name kinds).
 * Each room's view must fit the kind's summary in the shared contract (`LiveSummaries`).
 */
export type StreamRule<K extends StreamKind> = (
  event: RecordedEvent,
  id: StreamIdOf<K>,
) => readonly Delivery<LiveSummaries[K]>[];

/** Room names used by the platform; domain modules add their own (e.g. `safeguarding`). */
export const LiveRooms = {
  user: (userId: string) => `user:${userId}`,
  customer: (customerId: string) => `customer:${customerId}`,
  admins: 'admins',
} as const;

/**
 * The single registry of who may see what on the live channel. Domain modules extend it when they
 * start (inject `RoomPolicy` and call `addRooms`, `forStream`, `forEventType`). Streams are named by
 * their kind in the shared stream registry (`STREAMS`, `parseStream`: exact names, then the longest
 * prefix; docs/decisions/0044-stream-registry.md). An event that no rule covers goes nowhere. Rules must be synchronous and pure: the publisher calls them for every event, and
 * the replay calls them again for missed events.
 */
@Injectable()
export class RoomPolicy {
  private readonly derivers: RoomDeriver[] = [];
  private readonly byType = new Map<string, AudienceRule>();
  private readonly byStream = new Map<StreamKind, StreamRule<StreamKind>>();

  addRooms(deriver: RoomDeriver): this {
    this.derivers.push(deriver);
    return this;
  }

  /** A rule for one event type; it takes precedence over the rule of the event's stream kind. */
  forEventType(type: string, rule: AudienceRule): this {
    if (this.byType.has(type)) throw new Error(`A live audience rule for event type ${type} already exists`);
    this.byType.set(type, rule);
    return this;
  }

  /**
   * A rule for every event in the streams of one kind (`user` for `user-{id}`, never
   * `user-availability-{id}`), given the stream's id.
   */
  forStream<K extends StreamKind>(kind: K, rule: StreamRule<K>): this {
    if (this.byStream.has(kind))
      throw new Error(`A live audience rule for stream kind ${kind} already exists`);
    this.byStream.set(kind, rule);
    return this;
  }

  /** Rooms a connected user joins: always `user:{id}`, then what the registered derivers add. */
  rooms(actor: LiveActor): string[] {
    const rooms = new Set([LiveRooms.user(actor.userId)]);
    for (const derive of this.derivers) for (const room of derive(actor)) rooms.add(room);
    return [...rooms];
  }

  /** Where an event goes; an empty list for events no rule covers. Repeated rooms keep the first. */
  audience(event: RecordedEvent): Delivery[] {
    const deliveries = this.deliveriesOf(event);
    const seen = new Set<string>();
    return deliveries.filter((d) => !seen.has(d.room) && seen.add(d.room));
  }

  private deliveriesOf(event: RecordedEvent): readonly Delivery[] {
    const byType = this.byType.get(event.type);
    if (byType) return byType(event);
    const stream = parseStream(event.stream);
    const rule = stream && this.byStream.get(stream.kind);
    return rule ? rule(event, stream.id) : [];
  }

  /** What a socket in `rooms` sees of an event (the first delivery to one of its rooms), or null. */
  deliveryFor(event: RecordedEvent, rooms: ReadonlySet<string>): Delivery | null {
    return this.audience(event).find((d) => rooms.has(d.room)) ?? null;
  }
}
