import { defineProjection, guardedSet } from '../projection.js';

/**
 * Networks (spec §3 "Network: id, name, timezone"; plus the primary colour of the client theme, spec
 * §1). Stream `network-{id}`. Users point at them with `network_id` and `active_network_id`.
 */
export interface NetworkCreatedData {
  networkId: string;
  name: string;
  timezone: string;
  primaryColour: string;
}

export interface NetworkRenamedData {
  networkId: string;
  name: string;
}

export interface NetworkTimezoneChangedData {
  networkId: string;
  timezone: string;
}

export interface NetworkPrimaryColourChangedData {
  networkId: string;
  primaryColour: string;
}

export type NetworkEvent =
  | { type: 'NetworkCreated'; data: NetworkCreatedData }
  | { type: 'NetworkRenamed'; data: NetworkRenamedData }
  | { type: 'NetworkTimezoneChanged'; data: NetworkTimezoneChangedData }
  | { type: 'NetworkPrimaryColourChanged'; data: NetworkPrimaryColourChangedData };

export type NetworkEventType = NetworkEvent['type'];

export const NETWORK_EVENT_TYPES: readonly NetworkEventType[] = [
  'NetworkCreated',
  'NetworkRenamed',
  'NetworkTimezoneChanged',
  'NetworkPrimaryColourChanged',
];

export const networkStream = (networkId: string) => `network-${networkId}`;

/** The default primary colour: the client theme's dark teal (shade 7). */
export const DEFAULT_NETWORK_COLOUR = '#0f716c';

export interface NetworkRow {
  id: string;
  name: string;
  timezone: string;
  primary_colour: string;
  created_at: Date;
  updated_at: Date;
  version: string;
}

const COLUMN: Record<Exclude<NetworkEventType, 'NetworkCreated'>, string> = {
  NetworkRenamed: 'name',
  NetworkTimezoneChanged: 'timezone',
  NetworkPrimaryColourChanged: 'primary_colour',
};

export const networksProjection = defineProjection<NetworkEvent>()({
  name: 'networks',
  version: 1,
  tables: ['rm_networks'],
  schema: [
    `CREATE TABLE IF NOT EXISTS rm_networks (
       id             uuid PRIMARY KEY,
       name           text NOT NULL,
       timezone       text NOT NULL,
       primary_colour text NOT NULL,
       created_at     timestamptz NOT NULL,
       updated_at     timestamptz NOT NULL,
       version        bigint NOT NULL
     )`,
    `CREATE INDEX IF NOT EXISTS rm_networks_name ON rm_networks (lower(name), id)`,
  ],
  handles: NETWORK_EVENT_TYPES,
  async apply(e, tx) {
    const revision = e.revision.toString();
    const at = e.metadata.occurredAt;
    if (e.type === 'NetworkCreated') {
      await tx.query(
        `INSERT INTO rm_networks (id, name, timezone, primary_colour, created_at, updated_at, version)
         VALUES ($1, $2, $3, $4, $5, $5, $6::bigint) ON CONFLICT (id) DO NOTHING`,
        [e.data.networkId, e.data.name, e.data.timezone, e.data.primaryColour, at, revision],
      );
      return;
    }
    const value =
      e.type === 'NetworkRenamed'
        ? e.data.name
        : e.type === 'NetworkTimezoneChanged'
          ? e.data.timezone
          : e.data.primaryColour;
    await guardedSet(tx, 'rm_networks', e.data.networkId, revision, {
      [COLUMN[e.type]]: value,
      updated_at: at,
    });
  },
});
