import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  allProjections,
  availabilityStream,
  customerInvitationStream,
  customerStream,
  CUSTOM_FIELDS_STREAM,
  EHCP_REMINDERS_STREAM,
  enrolmentStream,
  groupStream,
  lessonStream,
  programmeStream,
  scheduleStream,
  type AvailabilityEvent,
  type EnrolmentEvent,
  type GroupEvent,
  type LessonEvent,
  type RegisterEvent,
  type PlannedAbsenceEvent,
  plannedAbsenceStream,
  type CoverRequestEvent,
  type MeetingEvent,
  coverRequestStream,
  halfTermReportStream,
  halfTermReportViewsStream,
  type ReportViewEvent,
  reportTimeframeStream,
  type HalfTermReportEvent,
  type ReportState,
  type TimeframeEvent,
  meetingStream,
  type ScheduleEvent,
  type ProgrammeEvent,
  type CustomerEvent,
  type CustomerInvitationEvent,
  type CustomFieldsEvent,
  type EhcpReminderEvent,
  type ProductEvent,
  type SubjectEvent,
  type TermCalendarEvent,
  type YearGroupEvent,
  productStream,
  subjectStream,
  termCalendarStream,
  yearGroupStream,
  type ProjectionEvent,
  type UserCreatedData,
} from '@portal/projections';
import { EVENT_STORE, type EventStore } from '../event-store/event-store.js';
import type { SqlClient } from '../sql/sql-client.js';
import { portalModes, startTestPortal } from '../testing/portal-harness.js';
import { applyEvents, projectionContract, resetProjection, rowsOf } from '../testing/projection-contract.js';
import { sqlTargets } from '../testing/sql-targets.js';

/**
 * What the demo does not do (it never invites, blocks, renames or sets availability), as the deciders
 * would record it, on the demo's own customers and students; typed by each area's event union.
 */
function afterTheDemo(demo: ProjectionEvent[]): ProjectionEvent[] {
  const created = (type: string) =>
    demo.filter((e) => e.type === 'UserCreated' && (e.data as UserCreatedData).userType === type);
  const [s1, s2] = created('student').map((e) => (e.data as UserCreatedData).userId);
  const tutor = (created('teacher')[0]?.data as UserCreatedData | undefined)?.userId;
  const customer = (demo.find((e) => e.type === 'CustomerCreated')?.data as { customerId: string })
    .customerId;
  if (!s1 || !s2 || !tutor) throw new Error('the demo has no students or teachers');
  const inv1 = '5e000000-0000-4000-8000-000000000001';
  const inv2 = '5e000000-0000-4000-8000-000000000002';
  const partner = '5e000000-0000-4000-8000-0000000000aa';
  const events: [string, { type: string; data: unknown }][] = [
    ...(
      [
        {
          type: 'CustomerInvitationSent',
          data: {
            invitationId: inv1,
            customerId: customer,
            email: 'a@x.org',
            customerType: 'parent',
            invitedBy: null,
          },
        },
        {
          type: 'CustomerInvitationSent',
          data: {
            invitationId: inv2,
            customerId: customer,
            email: 'b@x.org',
            customerType: 'admin',
            invitedBy: tutor,
          },
        },
        { type: 'CustomerInvitationAccepted', data: { invitationId: inv1, userId: partner } },
      ] satisfies CustomerInvitationEvent[]
    ).map((e) => [customerInvitationStream(e.data.invitationId), e] as [string, typeof e]),
    ...(
      [
        {
          type: 'AvailabilitySet',
          data: {
            userId: tutor,
            type: 'tutoring',
            week: null,
            availabilities: [{ dayOfWeek: 0, startMinute: 540, endMinute: 720 }],
          },
        },
        {
          type: 'AvailabilitySet',
          data: { userId: tutor, type: 'tutoring', week: '2030-01-07', availabilities: [] },
        },
        {
          type: 'AvailabilitySet',
          data: {
            userId: tutor,
            type: 'tutoring',
            week: null,
            availabilities: [{ dayOfWeek: 2, startMinute: 600, endMinute: 660 }],
          },
        },
      ] satisfies AvailabilityEvent[]
    ).map((e) => [availabilityStream(tutor), e] as [string, typeof e]),
    ...(
      [
        {
          type: 'UserCustomFieldsDefined',
          data: { fields: [{ id: 'f1', name: 'Locker', type: 'text', options: [], required: false }] },
        },
        {
          type: 'UserCustomFieldsDefined',
          data: {
            fields: [{ id: 'f2', name: 'House', type: 'select', options: ['Red', 'Blue'], required: true }],
          },
        },
      ] satisfies CustomFieldsEvent[]
    ).map((e) => [CUSTOM_FIELDS_STREAM, e] as [string, typeof e]),
    ...(
      [
        { type: 'EhcpRemindersChanged', data: { added: [s1, s2], removed: [] } },
        { type: 'EhcpRemindersChanged', data: { added: [], removed: [s2] } },
      ] satisfies EhcpReminderEvent[]
    ).map((e) => [EHCP_REMINDERS_STREAM, e] as [string, typeof e]),
    ...(
      [
        { type: 'CustomerRenamed', data: { customerId: customer, name: 'Oakfield Academy Trust' } },
        { type: 'CustomerNetworkChanged', data: { customerId: customer, networkId: null } },
      ] satisfies CustomerEvent[]
    ).map((e) => [customerStream(customer), e] as [string, typeof e]),
    ...referenceChanges(demo),
    ...teachingHistory(customer, tutor, s1, s2),
    ...lessonsHistory(customer, tutor, s1),
    ...coverHistory(customer, tutor, s1, s2),
    ...attendanceHistory(customer, tutor, s1, s2),
    ...reportsHistory(customer, tutor, s1, s2),
    [`user-${s1}`, { type: 'UserBlocked', data: { userId: s1 } }],
    [`user-${s1}`, { type: 'UserUnblocked', data: { userId: s1 } }],
    [`user-${s2}`, { type: 'UserDeactivated', data: { userId: s2, scheduled: false } }],
    [`user-${s2}`, { type: 'UserActivated', data: { userId: s2 } }],
    [`user-${s2}`, { type: 'UserBlocked', data: { userId: s2 } }],
  ];
  const revisions = new Map<string, bigint>();
  for (const e of demo) revisions.set(e.stream, e.revision + 1n);
  const last = demo.at(-1)!;
  return events.map(([stream, e], i) => {
    const revision = revisions.get(stream) ?? 0n;
    revisions.set(stream, revision + 1n);
    const at = new Date(last.createdAt.getTime() + (i + 1) * 60_000);
    return {
      id: `5e000000-0000-4000-8000-1${String(i).padStart(11, '0')}`,
      stream,
      revision,
      position: last.position + BigInt(i + 1),
      type: e.type,
      data: e.data,
      metadata: { actorId: null, occurredAt: at.toISOString() },
      createdAt: at,
    };
  });
}

/** Reference data and term calendar changes the demo does not make (decision 0049). */
function referenceChanges(demo: ProjectionEvent[]): [string, { type: string; data: unknown }][] {
  const first = (type: string) => demo.find((e) => e.type === type)?.data as Record<string, string>;
  const subjectId = first('SubjectCreated').subjectId!;
  const yearGroupId = first('YearGroupCreated').yearGroupId!;
  const productId = first('ProductCreated').productId!;
  const calendarId = first('TermCalendarCreated').calendarId!;
  return [
    [
      subjectStream(subjectId),
      { type: 'SubjectRenamed', data: { subjectId, name: 'Literature' } } satisfies SubjectEvent,
    ],
    [
      yearGroupStream(yearGroupId),
      { type: 'YearGroupKeyStageChanged', data: { yearGroupId, keyStage: 'KS1' } } satisfies YearGroupEvent,
    ],
    [
      productStream(productId),
      {
        type: 'ProductDetailsChanged',
        data: { productId, defaultDurationMinutes: 90 },
      } satisfies ProductEvent,
    ],
    [
      termCalendarStream(calendarId),
      {
        type: 'TermCalendarTermsChanged',
        data: { calendarId, terms: [{ name: 'Autumn', firstDay: '2026-09-03', lastDay: '2026-12-17' }] },
      } satisfies TermCalendarEvent,
    ],
    [
      termCalendarStream(calendarId),
      { type: 'TermCalendarClosuresChanged', data: { calendarId, closures: [] } } satisfies TermCalendarEvent,
    ],
    [
      termCalendarStream(calendarId),
      { type: 'TermCalendarRenamed', data: { calendarId, name: 'Renamed' } } satisfies TermCalendarEvent,
    ],
  ];
}

/** A programme's life (draft → active → paused → active), a group's membership over time, enrolments. */
function teachingHistory(customerId: string, tutor: string, s1: string, s2: string) {
  const programmeId = '5e000000-0000-4000-8000-0000000000b1';
  const groupId = '5e000000-0000-4000-8000-0000000000b2';
  const e1 = '5e000000-0000-4000-8000-0000000000b3';
  const e2 = '5e000000-0000-4000-8000-0000000000b4';
  const g = { groupId, programmeId, customerId, teacherIds: [tutor] };
  const placement = { placementType: 'MAIN', setting: 'HOME', reasonForPlacement: 'SEMH' } as const;
  return [
    ...(
      [
        {
          type: 'ProgrammeCreated',
          data: {
            programmeId,
            networkId: null,
            customerId,
            productId: null,
            subjectId: null,
            yearGroupId: null,
            kind: 'lesson',
            title: 'Maths recovery',
            startDate: '2026-09-07',
            endDate: null,
            timezone: 'Europe/London',
            sourceProgrammeId: null,
          },
        },
        {
          type: 'ProgrammeDetailsChanged',
          data: { programmeId, customerId, title: 'Maths GCSE recovery', endDate: '2027-07-16' },
        },
        { type: 'ProgrammeActivated', data: { programmeId, customerId } },
        { type: 'ProgrammePaused', data: { programmeId, customerId, reason: 'half term' } },
        { type: 'ProgrammeResumed', data: { programmeId, customerId, teacherIds: [tutor] } },
      ] satisfies ProgrammeEvent[]
    ).map((e) => [programmeStream(programmeId), e] as [string, typeof e]),
    ...(
      [
        {
          type: 'GroupCreated',
          data: {
            ...g,
            name: 'Group A',
            teachers: [{ teacherId: tutor, role: 'lead' }],
            sourceGroupId: null,
          },
        },
        { type: 'StudentAddedToGroup', data: { ...g, studentId: s1, from: '2026-09-07' } },
        { type: 'StudentAddedToGroup', data: { ...g, studentId: s2, from: '2026-09-07' } },
        { type: 'StudentRemovedFromGroup', data: { ...g, studentId: s1, to: '2026-10-23' } },
        { type: 'StudentAddedToGroup', data: { ...g, studentId: s1, from: '2026-11-02' } },
        { type: 'GroupRenamed', data: { ...g, name: 'Group A (Tue)' } },
        { type: 'GroupTeachersChanged', data: { ...g, teachers: [{ teacherId: tutor, role: 'assistant' }] } },
      ] satisfies GroupEvent[]
    ).map((e) => [groupStream(groupId), e] as [string, typeof e]),
    ...(
      [
        {
          type: 'StudentEnrolled',
          data: {
            enrolmentId: e1,
            studentId: s1,
            programmeId,
            customerId,
            startDate: '2026-09-07',
            endDate: null,
            status: 'active',
            ...placement,
          },
        },
        {
          type: 'EnrolmentDetailsChanged',
          data: {
            enrolmentId: e1,
            studentId: s1,
            programmeId,
            customerId,
            setting: 'MIXED',
            status: 'paused',
          },
        },
        {
          type: 'StudentWithdrawnFromEnrolment',
          data: {
            enrolmentId: e1,
            studentId: s1,
            programmeId,
            customerId,
            reason: 'moved',
            on: '2026-12-18',
          },
        },
      ] satisfies EnrolmentEvent[]
    ).map((e) => [enrolmentStream(e1), e] as [string, typeof e]),
    ...(
      [
        {
          type: 'StudentEnrolled',
          data: {
            enrolmentId: e2,
            studentId: s2,
            programmeId,
            customerId,
            startDate: '2026-09-07',
            endDate: '2027-07-16',
            status: 'requested',
            ...placement,
          },
        },
        {
          type: 'EnrolmentEnded',
          data: { enrolmentId: e2, studentId: s2, programmeId, customerId, on: '2027-07-16' },
        },
      ] satisfies EnrolmentEvent[]
    ).map((e) => [enrolmentStream(e2), e] as [string, typeof e]),
  ];
}

/** A timeframe and one report through every workflow step, revoked and republished (decision 0057). */
function reportsHistory(customerId: string, tutor: string, qa: string, lead: string) {
  const timeframeId = '5e000000-0000-4000-8000-0000000000e1';
  const reportId = '5e000000-0000-4000-8000-0000000000e2';
  const fields = {
    timeframeId,
    name: 'Autumn 2',
    academicYear: '2026/27',
    halfTerm: 'autumn_2' as const,
    networkId: null,
    timezone: 'Europe/London',
    periodFrom: '2026-11-02',
    periodTo: '2026-12-18',
    opensAt: '2026-12-07',
    submitBy: '2026-12-11',
    qaBy: '2026-12-14',
    releaseAt: '2026-12-18',
    closesAt: null,
    scope: { customerIds: [customerId], programmeIds: [], productIds: [] },
  };
  const ref = (state: ReportState) => ({ reportId, timeframeId, customerId, writerIds: [tutor], state });
  const signed = (hash: string) => ({ hash, canonical: '{"v":1}', documentRevision: '2' });
  return [
    ...(
      [
        { type: 'ReportSubmissionTimeframeCreated', data: fields },
        { type: 'ReportSubmissionTimeframeChanged', data: { ...fields, releaseAt: '2026-12-21' } },
      ] satisfies TimeframeEvent[]
    ).map((e) => [reportTimeframeStream(timeframeId), e] as [string, typeof e]),
    ...(
      [
        {
          type: 'HalfTermReportCreated',
          data: {
            ...ref('draft'),
            studentId: qa,
            programmeId: '5e000000-0000-4000-8000-0000000000b1',
            lessonCounts: [{ teacherId: tutor, delivered: 3, planned: 1 }],
          },
        },
        {
          type: 'HalfTermReportAssignmentChanged',
          data: { ...ref('draft'), qaReviewerId: qa, leadReviewerId: lead },
        },
        { type: 'HalfTermReportSubmitted', data: { ...ref('submitted'), ...signed('a1'), by: tutor } },
        { type: 'HalfTermReportSubmissionWithdrawn', data: { ...ref('draft'), by: tutor } },
        { type: 'HalfTermReportSubmitted', data: { ...ref('submitted'), ...signed('a2'), by: tutor } },
        { type: 'HalfTermReportQaReviewClaimed', data: { ...ref('in_qa'), by: qa } },
        { type: 'HalfTermReportQaReviewReleased', data: { ...ref('submitted'), by: qa } },
        { type: 'HalfTermReportQaReviewClaimed', data: { ...ref('in_qa'), by: qa } },
        {
          type: 'HalfTermReportChangesRequested',
          data: { ...ref('returned'), by: qa, reason: 'More detail' },
        },
        { type: 'HalfTermReportSubmitted', data: { ...ref('submitted'), ...signed('a3'), by: tutor } },
        { type: 'HalfTermReportQaReviewClaimed', data: { ...ref('in_qa'), by: qa } },
        { type: 'HalfTermReportQaApproved', data: { ...ref('qa_approved'), ...signed('a3'), by: qa } },
        { type: 'HalfTermReportQaApprovalRevoked', data: { ...ref('in_qa'), by: qa, reason: 'Typo' } },
        { type: 'HalfTermReportQaApproved', data: { ...ref('qa_approved'), ...signed('a4'), by: qa } },
        { type: 'HalfTermReportLeadReviewClaimed', data: { ...ref('in_lead_review'), by: lead } },
        { type: 'HalfTermReportLeadReviewReleased', data: { ...ref('qa_approved'), by: lead } },
        { type: 'HalfTermReportLeadReviewClaimed', data: { ...ref('in_lead_review'), by: lead } },
        {
          type: 'HalfTermReportReturnedToQa',
          data: { ...ref('in_qa'), by: lead, reason: 'Check', qaClaimedBy: qa },
        },
        { type: 'HalfTermReportQaApproved', data: { ...ref('qa_approved'), ...signed('a4'), by: qa } },
        { type: 'HalfTermReportLeadReviewClaimed', data: { ...ref('in_lead_review'), by: lead } },
        {
          type: 'HalfTermReportPublished',
          data: { ...ref('published'), ...signed('a4'), by: lead, revision: 1, qaApprovedBy: qa },
        },
        {
          type: 'HalfTermReportPublicationRevoked',
          data: { ...ref('in_lead_review'), by: lead, reason: 'Wrong name', revokedRevision: 1 },
        },
        { type: 'HalfTermReportReturnedToWriter', data: { ...ref('returned'), by: lead, reason: 'Fix it' } },
        {
          type: 'HalfTermReportDiscarded',
          data: { ...ref('discarded'), by: lead, reason: 'Duplicate', previousState: 'returned' },
        },
        { type: 'HalfTermReportRestored', data: { ...ref('returned'), by: lead } },
      ] satisfies HalfTermReportEvent[]
    ).map((e) => [halfTermReportStream(reportId), e] as [string, typeof e]),
    [
      halfTermReportViewsStream(reportId),
      {
        type: 'HalfTermReportViewedByPartner',
        data: { reportId, customerId, viewerId: lead, revision: 1, via: 'pdf' },
      } satisfies ReportViewEvent,
    ] as [string, ReportViewEvent],
  ];
}

/** Cover requests (filled, declined, cancelled) and a meeting join (decision 0054). */
function coverHistory(customerId: string, tutor: string, s1: string, s2: string) {
  const lessonId = '5e000000-0000-4000-8000-0000000000c2';
  const [r1, r2] = ['d1', 'd2'].map((n) => `5e000000-0000-4000-8000-0000000000${n}`);
  const audience = (coverRequestId: string, mode: 'broadcast' | 'targeted', teacherIds: string[]) => ({
    coverRequestId,
    requestedBy: tutor,
    mode,
    teacherIds,
  });
  const requested = (coverRequestId: string, mode: 'broadcast' | 'targeted', teacherIds: string[]) => ({
    type: 'CoverRequested' as const,
    data: {
      ...audience(coverRequestId, mode, teacherIds),
      lessonIds: [lessonId],
      lessonTeacherIds: [tutor],
      customerIds: [customerId],
      reason: 'Training day',
      firstStartsAt: '2026-09-07T08:30:00.000Z',
    },
  });
  return [
    ...(
      [
        requested(r1!, 'broadcast', []),
        { type: 'CoverOfferDeclined', data: { ...audience(r1!, 'broadcast', []), teacherId: s2 } },
        { type: 'CoverAccepted', data: { ...audience(r1!, 'broadcast', []), teacherId: s1 } },
        { type: 'CoverRequestFilled', data: { ...audience(r1!, 'broadcast', []), teacherId: s1 } },
      ] satisfies CoverRequestEvent[]
    ).map((e) => [coverRequestStream(r1!), e] as [string, typeof e]),
    ...(
      [
        requested(r2!, 'targeted', [s1]),
        { type: 'CoverRequestCancelled', data: { ...audience(r2!, 'targeted', [s1]), cancelledBy: tutor } },
      ] satisfies CoverRequestEvent[]
    ).map((e) => [coverRequestStream(r2!), e] as [string, typeof e]),
    [
      meetingStream(lessonId),
      {
        type: 'JoinLinkUsed',
        data: {
          meetingId: lessonId,
          lessonId,
          userId: tutor,
          role: 'teacher',
          at: '2026-09-07T08:25:00.000Z',
          customerId,
        },
      } satisfies MeetingEvent,
    ] as [string, MeetingEvent],
  ];
}

/** A register's life (opened, a guest, marks, an amendment, a reason, voided) and a planned absence (decision 0056). */
function attendanceHistory(customerId: string, tutor: string, s1: string, s2: string) {
  const lessonId = '5e000000-0000-4000-8000-0000000000e1';
  const absenceId = '5e000000-0000-4000-8000-0000000000e2';
  const guest = '5e000000-0000-4000-8000-0000000000e3';
  const aud = { lessonId, customerId, teacherId: tutor, coverTeacherId: null };
  const by = { id: tutor, name: 'Tutor', position: 'Tutor' };
  const present = {
    mark: 'present' as const,
    minutesLate: null,
    minutesMissed: null,
    absenceReason: null,
    suggestedCode: 'B',
  };
  const pending = { ...present, mark: 'absent_pending' as const, suggestedCode: 'N' };
  const ill = { ...present, mark: 'absent' as const, absenceReason: 'illness' as const, suggestedCode: 'I' };
  const late = { ...present, mark: 'late' as const, minutesLate: 10 };
  return [
    ...(
      [
        {
          type: 'RegisterOpened',
          data: {
            ...aud,
            openedAt: '2026-09-21T08:35:00.000Z',
            roster: [
              { studentId: s1, basis: 'enrolled' },
              { studentId: s2, basis: 'enrolled' },
            ],
            prefills: [],
            localDate: '2026-09-21',
            startsAt: '2026-09-21T08:30:00.000Z',
            durationMinutes: 60,
            programmeId: '5e000000-0000-4000-8000-0000000000b1',
            groupId: '5e000000-0000-4000-8000-0000000000b2',
          },
        },
        { type: 'GuestStudentAddedToRegister', data: { ...aud, studentId: guest, homeGroupId: null } },
        {
          type: 'AttendanceMarkRecorded',
          data: {
            ...aud,
            studentId: s1,
            ...present,
            source: 'teacher',
            recordedAt: '2026-09-21T08:36:00.000Z',
            recordedBy: by,
            clientKey: 'k1',
          },
        },
        {
          type: 'AttendanceMarkRecorded',
          data: {
            ...aud,
            studentId: s2,
            ...pending,
            source: 'teacher',
            recordedAt: '2026-09-21T08:36:00.000Z',
            recordedBy: by,
            clientKey: 'k1',
          },
        },
        {
          type: 'AttendanceMarkAmended',
          data: {
            ...aud,
            studentId: s1,
            original: present,
            amended: late,
            reason: 'Joined late',
            amendedAt: '2026-09-21T10:00:00.000Z',
            amendedBy: by,
            source: 'teacher',
            clientKey: 'k2',
          },
        },
        {
          type: 'AbsenceReasonProvided',
          data: {
            ...aud,
            studentId: s2,
            absenceReason: 'illness',
            note: null,
            providedAt: '2026-09-21T11:00:00.000Z',
            providedBy: { id: tutor, name: 'P', position: 'Parent / Carer' },
          },
        },
        {
          type: 'AttendanceMarkAmended',
          data: {
            ...aud,
            studentId: s2,
            original: pending,
            amended: ill,
            reason: 'Reason provided by Parent / Carer',
            amendedAt: '2026-09-21T11:00:00.000Z',
            amendedBy: by,
            source: 'partner',
            clientKey: null,
          },
        },
        { type: 'RegisterVoided', data: { ...aud, reason: 'Outage' } },
      ] satisfies RegisterEvent[]
    ).map((e) => [lessonStream(lessonId), e] as [string, typeof e]),
    ...(
      [
        {
          type: 'PlannedAbsenceRecorded',
          data: {
            plannedAbsenceId: absenceId,
            studentId: s1,
            customerId,
            from: '2026-10-01',
            to: '2026-10-02',
            absenceReason: 'medical',
            note: null,
            recordedBy: by,
          },
        },
        { type: 'PlannedAbsenceWithdrawn', data: { plannedAbsenceId: absenceId, studentId: s1, customerId } },
      ] satisfies PlannedAbsenceEvent[]
    ).map((e) => [plannedAbsenceStream(absenceId), e] as [string, typeof e]),
  ];
}

/** A schedule's life (created, changed, an exception, conflicts) and its lessons' (decision 0053). */
function lessonsHistory(customerId: string, tutor: string, cover: string) {
  const programmeId = '5e000000-0000-4000-8000-0000000000b1';
  const groupId = '5e000000-0000-4000-8000-0000000000b2';
  const scheduleId = '5e000000-0000-4000-8000-0000000000c1';
  const [l1, l2, l3, l4] = ['c2', 'c3', 'c4', 'c5'].map((n) => `5e000000-0000-4000-8000-0000000000${n}`);
  const rule = {
    groupId,
    teacherId: tutor,
    timezone: 'Europe/London',
    weekdays: [1, 4],
    localStart: '09:30',
    durationMinutes: 60,
    intervalWeeks: 1,
    validFrom: '2026-09-07',
    validUntil: null,
  };
  const audience = (lessonId: string) => ({ lessonId, customerId, teacherId: tutor, coverTeacherId: null });
  const timing = (localDate: string, startsAt: string, endsAt: string) => ({
    timezone: 'Europe/London',
    localDate,
    localStart: '09:30',
    durationMinutes: 60,
    startsAt,
    endsAt,
  });
  const planned = (lessonId: string, localDate: string, startsAt: string, endsAt: string) => ({
    type: 'LessonPlanned' as const,
    data: {
      ...audience(lessonId),
      ...timing(localDate, startsAt, endsAt),
      kind: 'lesson' as const,
      programmeId,
      groupId,
      scheduleId,
      meetingId: lessonId,
    },
  });
  return [
    ...(
      [
        { type: 'ScheduleCreated', data: { scheduleId, programmeId, customerId, ...rule } },
        {
          type: 'ScheduleChanged',
          data: { scheduleId, customerId, previousTeacherId: null, ...rule, durationMinutes: 45 },
        },
        {
          type: 'ScheduleExceptionAdded',
          data: {
            scheduleId,
            customerId,
            teacherId: tutor,
            localDate: '2026-09-14',
            action: 'skip',
            newLocalStart: null,
          },
        },
        {
          type: 'ScheduleExceptionAdded',
          data: {
            scheduleId,
            customerId,
            teacherId: tutor,
            localDate: '2026-09-14',
            action: 'move',
            newLocalStart: '11:00',
          },
        },
        {
          type: 'ScheduleConflictsRecorded',
          data: {
            scheduleId,
            customerId,
            teacherId: tutor,
            conflicts: [{ localDate: '2026-09-17', localStart: '09:30', lessonId: l4!, reason: 'teacher' }],
          },
        },
      ] satisfies ScheduleEvent[]
    ).map((e) => [scheduleStream(scheduleId), e] as [string, typeof e]),
    ...(
      [
        planned(l1!, '2026-09-07', '2026-09-07T08:30:00.000Z', '2026-09-07T09:30:00.000Z'),
        {
          type: 'LessonCoverTeacherChanged',
          data: { ...audience(l1!), coverTeacherId: cover, previousCoverTeacherId: null },
        },
        { type: 'LessonNotesChanged', data: { ...audience(l1!), notes: 'Bring calculators' } },
        { type: 'LessonDelivered', data: audience(l1!) },
      ] satisfies LessonEvent[]
    ).map((e) => [lessonStream(l1!), e] as [string, typeof e]),
    ...(
      [
        planned(l2!, '2026-09-10', '2026-09-10T08:30:00.000Z', '2026-09-10T09:30:00.000Z'),
        {
          type: 'LessonRescheduled',
          data: {
            ...audience(l2!),
            ...timing('2026-09-11', '2026-09-11T13:00:00.000Z', '2026-09-11T14:00:00.000Z'),
            reason: 'Trip',
          },
        },
        {
          type: 'LessonCancelled',
          data: {
            ...audience(l2!),
            reason: 'Ill',
            cancelledBy: 'provider',
            chargeCustomer: false,
            payTeacher: true,
          },
        },
      ] satisfies LessonEvent[]
    ).map((e) => [lessonStream(l2!), e] as [string, typeof e]),
    ...(
      [
        planned(l3!, '2026-09-14', '2026-09-14T08:30:00.000Z', '2026-09-14T09:30:00.000Z'),
        {
          type: 'LessonPlanChanged',
          data: {
            ...audience(l3!),
            ...timing('2026-09-14', '2026-09-14T08:30:00.000Z', '2026-09-14T09:15:00.000Z'),
            durationMinutes: 45,
            previousTeacherId: null,
          },
        },
        { type: 'LessonUnscheduled', data: { ...audience(l3!), scheduleId, reason: 'skipped' } },
        planned(l3!, '2026-09-14', '2026-09-14T10:00:00.000Z', '2026-09-14T11:00:00.000Z'),
      ] satisfies LessonEvent[]
    ).map((e) => [lessonStream(l3!), e] as [string, typeof e]),
  ];
}

/**
 * The projection contract (decision 0045) for every projection in `allProjections`, on both SQL
 * targets, over a realistic history: the events an embedded portal records while it seeds the demo
 * organisation through its own API (decision 0029).
 */
const history: ProjectionEvent[] = [];
/** The same history read with its personal fields left encrypted (`sealed`, decision 0089). */
const sealed: ProjectionEvent[] = [];

beforeAll(async () => {
  const portal = await startTestPortal(portalModes[0]!, 'portal_projection_contract', { DEMO_DATA: 'true' });
  try {
    const store = portal.running.app.get<EventStore>(EVENT_STORE);
    for (let from = 0n; ;) {
      const page = await store.readAll({ fromPosition: from, maxCount: 1000 });
      if (page.length === 0) break;
      history.push(...(page as unknown as ProjectionEvent[]));
      from = page.at(-1)!.position;
    }
    for (let from = 0n; ;) {
      const page = await store.readAll({ fromPosition: from, maxCount: 1000, sealed: true });
      if (page.length === 0) break;
      sealed.push(...(page as unknown as ProjectionEvent[]));
      from = page.at(-1)!.position;
    }
  } finally {
    await portal.close();
  }
  const after = afterTheDemo(history);
  history.push(...after);
  sealed.push(...after);
}, 240_000);

it('the recorded history reaches every projection', () => {
  for (const p of allProjections) expect(history.some((e) => p.handles.includes(e.type))).toBe(true);
});

describe.each(sqlTargets('portal_projection_contract_sql'))('projection contract on $name', (target) => {
  let sql: SqlClient;
  beforeAll(async () => {
    sql = await target.open();
  });
  afterAll(async () => {
    await sql.close();
    await target.close();
  });

  it.each(allProjections.map((p) => [p.name, p] as const))(
    '%s: replaying twice changes nothing; a rebuild equals the incremental result',
    async (_name, projection) => {
      const rows = await projectionContract(sql, projection, history);
      expect(Object.values(rows).some((r) => r.length > 0)).toBe(true);
    },
  );
});

/**
 * Decision 0089: a projection that declares `readsPersonalData: false` is rebuilt from a log whose
 * personal fields are still encrypted. It must build exactly the rows it builds from the decrypted log.
 */
describe('projections that read no personal data', () => {
  const declared = allProjections.filter((p) => p.readsPersonalData === false);
  let sql: SqlClient;
  const target = sqlTargets('portal_projection_sealed')[0]!;
  beforeAll(async () => {
    sql = await target.open();
  });
  afterAll(async () => {
    await sql.close();
    await target.close();
  });

  it.each(declared.map((p) => [p.name, p] as const))(
    '%s builds the same rows from the log with its personal fields encrypted',
    async (_name, projection) => {
      expect(sealed.map((e) => e.position)).toEqual(history.map((e) => e.position));
      // The sealed log hides something this projection is handed, so the comparison means something.
      const hidden = sealed.filter(
        (e, i) =>
          projection.handles.includes(e.type) && JSON.stringify(e.data) !== JSON.stringify(history[i]!.data),
      );
      expect(hidden.length).toBeGreaterThan(0);
      await resetProjection(sql, projection);
      await applyEvents(sql, projection, history);
      const revealed = await rowsOf(sql, projection);
      expect(Object.values(revealed).some((r) => r.length > 0)).toBe(true);
      await resetProjection(sql, projection);
      await applyEvents(sql, projection, sealed);
      expect(await rowsOf(sql, projection)).toEqual(revealed);
    },
  );
});
