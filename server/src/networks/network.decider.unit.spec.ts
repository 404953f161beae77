import { describe, expect, it } from '@jest/globals';
import { DomainError, type ErrorKind } from '../platform/domain/domain-error.js';
import type { NetworkEvent } from '@portal/projections';
import { decideNetwork, foldNetwork, type NetworkCommand } from './network.decider.js';
import { timezoneInfo, utcOffsetMinutes } from './timezone-info.js';

const ID = '11111111-1111-4111-8111-111111111111';
const created: NetworkEvent = {
  type: 'NetworkCreated',
  data: { networkId: ID, name: 'North', timezone: 'Europe/London', primaryColour: '#0f716c' },
};
const create = (over: Partial<Extract<NetworkCommand, { type: 'CreateNetwork' }>> = {}): NetworkCommand => ({
  type: 'CreateNetwork',
  networkId: ID,
  name: 'North',
  timezone: 'Europe/London',
  primaryColour: '#0f716c',
  ...over,
});

const rows: Array<{
  name: string;
  given: NetworkEvent[];
  when: NetworkCommand;
  then: NetworkEvent[] | [ErrorKind, string];
}> = [
  { name: 'creating records name, time zone and colour', given: [], when: create(), then: [created] },
  {
    name: 'a short colour is stored in full, lower case',
    given: [],
    when: create({ primaryColour: '#ABC' }),
    then: [{ ...created, data: { ...created.data, primaryColour: '#aabbcc' } }],
  },
  {
    name: 'creating twice is a conflict',
    given: [created],
    when: create(),
    then: ['conflict', 'Network already exists'],
  },
  {
    name: 'an unknown time zone is refused naming the field',
    given: [],
    when: create({ timezone: 'Mars/Olympus' }),
    then: ['invalid', 'timezone: unknown time zone Mars/Olympus'],
  },
  {
    name: 'a colour that is not hex is refused naming the field',
    given: [],
    when: create({ primaryColour: 'red' }),
    then: ['invalid', 'primary_colour: must be a hex colour like #0f716c'],
  },
  {
    name: 'an update records each changed field',
    given: [created],
    when: {
      type: 'UpdateNetwork',
      networkId: ID,
      name: 'South',
      timezone: 'America/New_York',
      primaryColour: '#112233',
    },
    then: [
      { type: 'NetworkRenamed', data: { networkId: ID, name: 'South' } },
      { type: 'NetworkTimezoneChanged', data: { networkId: ID, timezone: 'America/New_York' } },
      { type: 'NetworkPrimaryColourChanged', data: { networkId: ID, primaryColour: '#112233' } },
    ],
  },
  {
    name: 'an update that changes nothing writes nothing',
    given: [created],
    when: { type: 'UpdateNetwork', networkId: ID, name: 'North', primaryColour: '#0F716C' },
    then: [],
  },
  {
    name: 'the state follows the events',
    given: [created, { type: 'NetworkRenamed', data: { networkId: ID, name: 'South' } }],
    when: { type: 'UpdateNetwork', networkId: ID, name: 'South' },
    then: [],
  },
  {
    name: 'updating an unknown network is not found',
    given: [],
    when: { type: 'UpdateNetwork', networkId: ID, name: 'X' },
    then: ['not_found', 'Network not found'],
  },
];

describe('network decider', () => {
  it.each(rows)('$name', ({ given, when, then }) => {
    const state = foldNetwork(given);
    if (typeof then[0] === 'string') {
      const [kind, detail] = then as [ErrorKind, string];
      let error: unknown;
      try {
        decideNetwork(when, state);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(DomainError);
      expect(error).toMatchObject({ kind, detail });
    } else {
      expect(decideNetwork(when, state)).toEqual(then);
    }
  });
});

describe('timezone info (spec §3, §4)', () => {
  const winter = new Date('2030-01-15T12:00:00Z');
  const summer = new Date('2030-07-15T12:00:00Z');
  it('reads UTC offsets, with daylight saving', () => {
    expect(utcOffsetMinutes('Europe/London', winter)).toBe(0);
    expect(utcOffsetMinutes('Europe/London', summer)).toBe(60);
    expect(utcOffsetMinutes('Asia/Kolkata', winter)).toBe(330);
    expect(utcOffsetMinutes('America/New_York', winter)).toBe(-300);
  });
  it('reports the difference in hours, user minus network', () => {
    expect(timezoneInfo('America/New_York', { name: 'North', timezone: 'Europe/London' }, winter)).toEqual({
      user_timezone: 'America/New_York',
      network_timezone: 'Europe/London',
      network_name: 'North',
      is_different: true,
      difference_in_hours: -5,
    });
    expect(timezoneInfo('Asia/Kolkata', { name: 'N', timezone: 'Europe/London' }, summer)).toMatchObject({
      is_different: true,
      difference_in_hours: 4.5,
    });
  });
  it('same clock is not different, even under another name; no network is not different', () => {
    expect(timezoneInfo('Europe/Lisbon', { name: 'N', timezone: 'Europe/London' }, winter)).toMatchObject({
      is_different: false,
      difference_in_hours: 0,
    });
    expect(timezoneInfo('Europe/London', null, winter)).toEqual({
      user_timezone: 'Europe/London',
      network_timezone: null,
      network_name: null,
      is_different: false,
      difference_in_hours: 0,
    });
  });
});
