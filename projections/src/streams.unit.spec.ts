import { describe, expect, it } from '@jest/globals';
import { availabilityStream } from './availability/availability.projection.js';
import { CUSTOM_FIELDS_STREAM } from './custom-fields/custom-fields.projection.js';
import { customerInvitationStream } from './customer-invitations/customer-invitations.projection.js';
import { customerStream } from './customers/customers.projection.js';
import { EHCP_REMINDERS_STREAM } from './ehcp/ehcp-reminders.projection.js';
import { networkStream } from './networks/networks.projection.js';
import { onePageProfileStream } from './one-page-profiles/one-page-profiles.projection.js';
import { permissionTemplateStream } from './permission-templates/permission-templates.projection.js';
import { feedbackLinksStream } from './safeguarding/feedback-link-events.js';
import {
  incidentStream,
  incidentTypeStream,
  incidentViewsStream,
} from './safeguarding/safeguarding-events.js';
import { productStream, subjectStream, yearGroupStream } from './reference/reference.projection.js';
import { termCalendarStream } from './term-calendars/term-calendars.projection.js';
import { enrolmentStream, groupStream, programmeStream } from './programmes/programmes.projection.js';
import { lessonStream, scheduleStream } from './lessons/lessons.projection.js';
import { coverRequestStream, meetingStream } from './cover/cover.projection.js';
import { parseStream, queryRootFor, STREAMS, streamIdOf, streamName, type StreamKind } from './streams.js';

const ID = '0f8fad5b-d9cb-469f-a165-70867728950e';

describe('parseStream', () => {
  it('takes the longest matching prefix, so multi-word names are not cut at the first dash', () => {
    expect(parseStream(`user-${ID}`)).toEqual({ kind: 'user', id: ID });
    expect(parseStream(`user-availability-${ID}`)).toEqual({ kind: 'userAvailability', id: ID });
    expect(parseStream(`customer-${ID}`)).toEqual({ kind: 'customer', id: ID });
    expect(parseStream(`customer-invitation-${ID}`)).toEqual({ kind: 'customerInvitation', id: ID });
    expect(parseStream(`safeguarding-incident-${ID}`)).toEqual({ kind: 'incident', id: ID });
    expect(parseStream(`safeguarding-incident-type-${ID}`)).toEqual({ kind: 'incidentType', id: ID });
    expect(parseStream(`safeguarding-incident-views-${ID}`)).toEqual({ kind: 'incidentViews', id: ID });
    expect(parseStream(`one-page-profile-${ID}`)).toEqual({ kind: 'onePageProfile', id: ID });
    expect(parseStream(`collab-safeguarding-incident-${ID}`)).toEqual({
      kind: 'collabDocument',
      id: `safeguarding-incident-${ID}`,
    });
  });

  it('knows exact names before prefixes: user-custom-fields is not the user "custom-fields"', () => {
    expect(parseStream('user-custom-fields')).toEqual({ kind: 'userCustomFields', id: null });
    expect(parseStream('ehcp-reminders')).toEqual({ kind: 'ehcpReminders', id: null });
  });

  it('gives null for unknown names and for a bare prefix without an id', () => {
    expect(parseStream('settings')).toBeNull();
    expect(parseStream(`one-${ID}`)).toBeNull();
    expect(parseStream(`permission-${ID}`)).toBeNull();
    expect(parseStream('user-')).toBeNull();
    expect(parseStream('ehcp-reminders-2')).toBeNull();
  });

  it('agrees with every stream-name helper the server writes with (no drift between writers and readers)', () => {
    const written: [string, StreamKind, string | null][] = [
      [availabilityStream(ID), 'userAvailability', ID],
      [CUSTOM_FIELDS_STREAM, 'userCustomFields', null],
      [EHCP_REMINDERS_STREAM, 'ehcpReminders', null],
      [customerStream(ID), 'customer', ID],
      [customerInvitationStream(ID), 'customerInvitation', ID],
      [networkStream(ID), 'network', ID],
      [permissionTemplateStream(ID), 'permissionTemplate', ID],
      [onePageProfileStream(ID), 'onePageProfile', ID],
      [incidentStream(ID), 'incident', ID],
      [incidentTypeStream(ID), 'incidentType', ID],
      [incidentViewsStream(ID), 'incidentViews', ID],
      [feedbackLinksStream(ID), 'feedbackLinks', ID],
      [subjectStream(ID), 'subject', ID],
      [yearGroupStream(ID), 'yearGroup', ID],
      [productStream(ID), 'product', ID],
      [termCalendarStream(ID), 'termCalendar', ID],
      [programmeStream(ID), 'programme', ID],
      [groupStream(ID), 'group', ID],
      [enrolmentStream(ID), 'enrolment', ID],
      [scheduleStream(ID), 'schedule', ID],
      [lessonStream(ID), 'lesson', ID],
      [coverRequestStream(ID), 'coverRequest', ID],
      [meetingStream(ID), 'meeting', ID],
    ];
    for (const [name, kind, id] of written) expect([name, parseStream(name)]).toEqual([name, { kind, id }]);
    // Every kind round-trips through streamName.
    for (const kind of Object.keys(STREAMS) as StreamKind[]) {
      const spec = STREAMS[kind];
      const name = 'exact' in spec ? spec.exact : spec.prefix + ID;
      expect(parseStream(name)?.kind).toBe(kind);
    }
    expect(streamName('user', ID)).toBe(`user-${ID}`);
    expect(streamName('userCustomFields')).toBe('user-custom-fields');
  });

  it('answers the id of one kind only, and the client query root from the same table', () => {
    expect(streamIdOf(`user-${ID}`, 'user')).toBe(ID);
    expect(streamIdOf(`user-availability-${ID}`, 'user')).toBeNull();
    expect(queryRootFor(`user-availability-${ID}`)).toBe('users');
    expect(queryRootFor('user-custom-fields')).toBe('users');
    expect(queryRootFor(`one-page-profile-${ID}`)).toBe('one-page-profiles');
    expect(queryRootFor(`permission-template-${ID}`)).toBe('permission-templates');
    expect(queryRootFor(`safeguarding-incident-${ID}`)).toBeNull();
    expect(queryRootFor(`yearGroup-${ID}`)).toBe('year-groups');
    expect(queryRootFor(`termCalendar-${ID}`)).toBe('term-calendars');
    expect(queryRootFor(`programme-${ID}`)).toBe('programmes');
    expect(queryRootFor(`group-${ID}`)).toBe('groups');
    expect(queryRootFor(`enrolment-${ID}`)).toBe('enrolments');
    expect(queryRootFor(`lesson-${ID}`)).toBe('lessons');
    expect(queryRootFor(`schedule-${ID}`)).toBe('schedules');
    expect(queryRootFor(`coverRequest-${ID}`)).toBe('cover-requests');
    expect(queryRootFor('settings')).toBeNull();
  });
});
