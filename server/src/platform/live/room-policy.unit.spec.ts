import { describe, expect, it } from '@jest/globals';
import type { RecordedEvent } from '../event-store/event-store.js';
import { RoomPolicy } from './room-policy.js';
import { registerDefaultLiveRules } from './default-rules.js';

function event(stream: string, type: string, data: unknown = {}): RecordedEvent {
  return {
    id: 'e',
    stream,
    revision: 0n,
    position: 7n,
    type,
    data,
    metadata: { actorId: null, occurredAt: '2026-01-01T00:00:00Z' },
    createdAt: new Date(0),
  };
}

const policy = () => {
  const p = new RoomPolicy();
  registerDefaultLiveRules(p);
  return p;
};

describe('RoomPolicy', () => {
  it('derives rooms from permissions: user:{id} always, admins, customer:{id}, and what modules add', () => {
    const p = policy().addRooms((a) => (a.permissions.has('SAFEGUARDING_VIEW') ? ['safeguarding'] : []));
    expect(p.rooms({ userId: 'u1', permissions: new Set(), customerId: null })).toEqual(['user:u1']);
    expect(p.rooms({ userId: 'u2', permissions: new Set(['USER_IS_ADMIN']), customerId: null })).toEqual([
      'user:u2',
      'admins',
    ]);
    expect(
      p.rooms({
        userId: 'u3',
        permissions: new Set(['USER_IS_PARTNER', 'SAFEGUARDING_VIEW']),
        customerId: 'c9',
      }),
    ).toEqual(['user:u3', 'customer:c9', 'safeguarding']);
  });

  it('sends user- events to admins (a small summary) and to the user (only who)', () => {
    const created = event('user-u1', 'UserCreated', {
      userId: 'u1',
      login: 'a@example.com',
      userType: 'teacher',
      email: 'a@example.com',
      permissions: ['USER_IS_TEACHER'],
    });
    expect(policy().audience(created)).toEqual([
      { room: 'admins', data: { userId: 'u1', login: 'a@example.com', userType: 'teacher' } },
      { room: 'user:u1', data: { userId: 'u1' } },
    ]);
  });

  it('routes by stream kind, longest prefix first: availability and custom fields are not user streams', () => {
    const p = policy();
    expect(p.audience(event('user-availability-u1', 'AvailabilitySet', { userId: 'u1' }))).toEqual([]);
    expect(p.audience(event('user-custom-fields', 'UserCustomFieldsDefined', { fields: [] }))).toEqual([]);
    p.forStream('userAvailability', (_e, userId) => [{ room: `user:${userId}`, data: { userId } }]);
    p.forStream('userCustomFields', (_e, id) => [
      { room: 'admins', data: { fieldCount: id === null ? 0 : 1 } },
    ]);
    expect(p.audience(event('user-availability-u1', 'AvailabilitySet'))).toEqual([
      { room: 'user:u1', data: { userId: 'u1' } },
    ]);
    expect(p.audience(event('user-custom-fields', 'UserCustomFieldsDefined'))).toEqual([
      { room: 'admins', data: { fieldCount: 0 } },
    ]);
    expect(p.audience(event('unknown-stream-1', 'UserCreated'))).toEqual([]);
  });

  it('sends unknown events nowhere; a type rule beats its stream rule; the first delivery wins', () => {
    const p = policy();
    expect(p.audience(event('safeguarding-incident-1', 'SafeguardingIncidentReported'))).toEqual([]);
    p.forEventType('UserPasswordChanged', (e) => [{ room: `user:${e.stream.slice(5)}`, data: null }]);
    expect(p.audience(event('user-u1', 'UserPasswordChanged'))).toEqual([{ room: 'user:u1', data: null }]);
    p.forStream('incident', (_e, incidentId) => [
      { room: 'safeguarding', data: { incidentId, riskLevel: 'high' } },
      { room: 'admins', data: { incidentId } },
      { room: 'safeguarding', data: { incidentId, status: 'again' } },
    ]);
    const incident = event('safeguarding-incident-1', 'SafeguardingIncidentReported');
    expect(p.audience(incident)).toHaveLength(2);
    expect(p.deliveryFor(incident, new Set(['admins', 'safeguarding']))).toEqual({
      room: 'safeguarding',
      data: { incidentId: '1', riskLevel: 'high' },
    });
    expect(p.deliveryFor(incident, new Set(['user:u1']))).toBeNull();
  });

  it('refuses a second rule for the same type or stream kind', () => {
    expect(() => policy().forStream('user', () => [])).toThrow(/already exists/);
    const p = policy().forEventType('X', () => []);
    expect(() => p.forEventType('X', () => [])).toThrow(/already exists/);
  });
});
