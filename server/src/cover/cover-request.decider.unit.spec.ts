import { describe, expect, it } from '@jest/globals';
import type { CoverRequestEvent } from '@portal/projections';
import { thrownKind, type ErrorKind } from '../platform/domain/domain-error.js';
import {
  decideCoverRequest,
  decideMeetingJoin,
  evolveCoverRequest,
  initialCoverRequestState,
  type CoverLessonFacts,
  type CoverRequestCommand,
  type CoverRequestState,
  type MeetingJoinCommand,
} from './cover-request.decider.js';

const R = '33333333-3333-4333-8333-333333333333';
const NOW = '2026-09-07T08:00:00.000Z';
const lesson = (over: Partial<CoverLessonFacts> = {}): CoverLessonFacts => ({
  lessonId: 'l1',
  teacherId: 'owner',
  customerId: 'c',
  status: 'planned',
  startsAt: '2026-09-08T08:30:00.000Z',
  ...over,
});
const request = (
  over: Partial<Extract<CoverRequestCommand, { type: 'RequestCover' }>> = {},
): CoverRequestCommand => ({
  type: 'RequestCover',
  coverRequestId: R,
  requestedBy: 'owner',
  lessons: [lesson(), lesson({ lessonId: 'l2', startsAt: '2026-09-07T09:00:00.000Z' })],
  reason: 'Hospital appointment',
  mode: 'broadcast',
  teacherIds: [],
  now: NOW,
  ...over,
});
const fold = (events: CoverRequestEvent[], state = initialCoverRequestState()): CoverRequestState =>
  events.reduce(evolveCoverRequest, state);
const open = (over: Parameters<typeof request>[0] = {}) =>
  fold(decideCoverRequest(request(over), initialCoverRequestState()));

describe('cover request decider', () => {
  it('records a broadcast request with the earliest lesson as its expiry and the lessons’ teachers', () => {
    const [event] = decideCoverRequest(request(), initialCoverRequestState());
    expect(event).toEqual({
      type: 'CoverRequested',
      data: expect.objectContaining({
        coverRequestId: R,
        mode: 'broadcast',
        teacherIds: [],
        lessonIds: ['l1', 'l2'],
        lessonTeacherIds: ['owner'],
        customerIds: ['c'],
        firstStartsAt: '2026-09-07T09:00:00.000Z',
      }),
    });
  });

  it.each<[string, Parameters<typeof request>[0], ErrorKind]>([
    ['no lessons', { lessons: [] }, 'invalid'],
    ['a blank reason', { reason: '  ' }, 'invalid'],
    ['targeted without teachers', { mode: 'targeted', teacherIds: [] }, 'invalid'],
    ['targeting the lesson’s own teacher', { mode: 'targeted', teacherIds: ['owner'] }, 'invalid'],
    ['a cancelled lesson', { lessons: [lesson({ status: 'cancelled' })] }, 'conflict'],
    ['a lesson that has started', { lessons: [lesson({ startsAt: NOW })] }, 'conflict'],
  ])('refuses a request with %s', (_name, over, kind) => {
    expect(thrownKind(() => decideCoverRequest(request(over), initialCoverRequestState()))).toBe(kind);
  });

  it('refuses a second request on the same stream', () => {
    expect(thrownKind(() => decideCoverRequest(request(), open()))).toBe('conflict');
  });

  it('fills on the first acceptance; a second acceptance is a conflict', () => {
    const state = open();
    const events = decideCoverRequest(
      { type: 'AcceptCover', coverRequestId: R, teacherId: 'cover', now: NOW },
      state,
    );
    expect(events.map((e) => e.type)).toEqual(['CoverAccepted', 'CoverRequestFilled']);
    const filled = fold(events, state);
    expect(filled).toMatchObject({ status: 'filled', filledBy: 'cover' });
    expect(
      thrownKind(() =>
        decideCoverRequest({ type: 'AcceptCover', coverRequestId: R, teacherId: 'other', now: NOW }, filled),
      ),
    ).toBe('conflict');
  });

  it.each<[string, CoverRequestState, string, string, ErrorKind]>([
    ['a missing request', initialCoverRequestState(), 'cover', NOW, 'not_found'],
    ['its own teacher', open(), 'owner', NOW, 'forbidden'],
    ['a teacher not targeted', open({ mode: 'targeted', teacherIds: ['t2'] }), 'cover', NOW, 'forbidden'],
    [
      'an expired request (the first lesson started)',
      open(),
      'cover',
      '2026-09-07T09:00:00.000Z',
      'conflict',
    ],
  ])('refuses an acceptance on %s', (_name, state, teacherId, now, kind) => {
    expect(
      thrownKind(() => decideCoverRequest({ type: 'AcceptCover', coverRequestId: R, teacherId, now }, state)),
    ).toBe(kind);
  });

  it('lets a targeted teacher accept', () => {
    const state = open({ mode: 'targeted', teacherIds: ['t2'] });
    expect(
      decideCoverRequest({ type: 'AcceptCover', coverRequestId: R, teacherId: 't2', now: NOW }, state).map(
        (e) => e.type,
      ),
    ).toEqual(['CoverAccepted', 'CoverRequestFilled']);
  });

  it('records a decline once and leaves the request open', () => {
    const decline: CoverRequestCommand = {
      type: 'DeclineCover',
      coverRequestId: R,
      teacherId: 'cover',
      now: NOW,
    };
    const events = decideCoverRequest(decline, open());
    expect(events.map((e) => e.type)).toEqual(['CoverOfferDeclined']);
    const after = fold(events, open());
    expect(after.status).toBe('open');
    expect(decideCoverRequest(decline, after)).toEqual([]);
  });

  it('cancels an open request; cancelling again writes nothing; a filled one cannot be cancelled', () => {
    const cancel: CoverRequestCommand = {
      type: 'CancelCoverRequest',
      coverRequestId: R,
      cancelledBy: 'owner',
      now: NOW,
    };
    const cancelled = fold(decideCoverRequest(cancel, open()), open());
    expect(cancelled.status).toBe('cancelled');
    expect(decideCoverRequest(cancel, cancelled)).toEqual([]);
    const filled = fold(
      decideCoverRequest({ type: 'AcceptCover', coverRequestId: R, teacherId: 'cover', now: NOW }, open()),
      open(),
    );
    expect(thrownKind(() => decideCoverRequest(cancel, filled))).toBe('conflict');
    expect(
      thrownKind(() =>
        decideCoverRequest({ type: 'DeclineCover', coverRequestId: R, teacherId: 'x', now: NOW }, cancelled),
      ),
    ).toBe('conflict');
  });
});

describe('meeting join decider', () => {
  const join = (over: Partial<MeetingJoinCommand> = {}): MeetingJoinCommand => ({
    type: 'UseJoinLink',
    meetingId: 'm',
    lessonId: 'l',
    customerId: 'c',
    lessonStatus: 'planned',
    startsAt: '2026-09-07T09:00:00.000Z',
    endsAt: '2026-09-07T10:00:00.000Z',
    opensAtLocal: '07.09.2026 09:50',
    userId: 'u',
    role: 'student',
    now: '2026-09-07T08:50:00.000Z',
    ...over,
  });

  it.each([
    ['10 minutes before the start', '2026-09-07T08:50:00.000Z'],
    ['during the lesson', '2026-09-07T09:59:59.000Z'],
  ])('records the join %s', (_name, now) => {
    expect(decideMeetingJoin(join({ now }))).toEqual([
      {
        type: 'JoinLinkUsed',
        data: { meetingId: 'm', lessonId: 'l', userId: 'u', role: 'student', at: now, customerId: 'c' },
      },
    ]);
  });

  it.each([
    ['too early, saying when to come back', { now: '2026-09-07T08:49:59.000Z' }, /07\.09\.2026 09:50/],
    ['after the end', { now: '2026-09-07T10:00:00.000Z' }, /ended/],
    ['a cancelled lesson', { lessonStatus: 'cancelled' }, /cancelled/],
  ])('refuses %s (409)', (_name, over, detail) => {
    expect(thrownKind(() => decideMeetingJoin(join(over)))).toBe('conflict');
    expect(() => decideMeetingJoin(join(over))).toThrow(detail);
  });
});
