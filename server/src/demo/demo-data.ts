import { Inject, Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { Logger } from 'pino';
import { SessionService } from '../platform/auth/session.service.js';
import { EscalationScheduler } from '../safeguarding/escalation.scheduler.js';
import { Readiness } from '../platform/http/readiness.js';
import { ProjectionRunner } from '../platform/projections/projection-runner.js';
import { EVENT_STORE } from '../platform/tokens.js';
import type { EventStore } from '../platform/event-store/event-store.js';
import { TEACHING_DEMO, type DemoCall } from './teaching-demo.js';

/** The stages the seeding reports while the portal says it is starting (health, the starting page). */
const STAGES = [
  'networks and permission templates',
  'partner schools and their users',
  'teachers',
  'students, contacts and one-page profiles',
  'linked students and safeguarding concerns',
  'teaching: subjects, programmes, groups and lessons',
  'read models catching up',
] as const;

function stage(n: number, total?: number) {
  return { stage: STAGES[n - 1]!, stageNumber: n, stages: STAGES.length, total };
}

/** What the portal says between opening its port and the seeding's first step. */
export const DEMO_STARTING = stage(1);

/** Every demo account signs in with this password (printed at start, listed in the README). */
export const DEMO_PASSWORD = 'Demo-Password-2026';

const NETWORKS = [
  { key: 'england', name: 'England & Wales', timezone: 'Europe/London', primary_colour: '#0f716c' },
  { key: 'spain', name: 'International (Madrid)', timezone: 'Europe/Madrid', primary_colour: '#5f3dc4' },
] as const;

const SCHOOLS = [
  { key: 'oakfield', name: 'Oakfield Academy', domain: 'oakfield.example.org', network: 'england' },
  {
    key: 'riverside',
    name: 'Riverside Pupil Referral Unit',
    domain: 'riverside.example.org',
    network: 'england',
  },
  {
    key: 'sthilda',
    name: "St Hilda's Church of England School",
    domain: 'sthildas.example.org',
    network: 'spain',
  },
] as const;

const SAFEGUARDING_TYPES: [string, string][] = [
  ['Neglect', 'Hunger, clothing, hygiene, missed medical care. Record what you saw and when.'],
  ['Online safety', 'Record what was shared, where and when. Do not screenshot or forward images.'],
  ['Bullying', 'Who, where, how often; the student’s own words.'],
  [
    'Emotional wellbeing',
    'Changes in mood or behaviour; anything the student said about harming themselves.',
  ],
];

const SAFEGUARDING_CONCERNS = [
  {
    type: 1,
    risk: 'high',
    hoursAgo: 2,
    description: 'During the lesson the student said an older boy keeps asking for photos over a game chat.',
    action: 'Reassured the student, told them not to reply, kept the lesson going.',
  },
  {
    type: 0,
    risk: 'medium',
    hoursAgo: 30,
    description:
      'Arrived at the online lesson saying they had not eaten since yesterday; third time this month.',
    action: 'Informed the school’s link contact by phone.',
  },
  {
    type: 2,
    risk: 'low',
    hoursAgo: 75,
    description: 'Student mentioned classmates posting unkind comments under their videos.',
    action: 'Talked it through; agreed to check in next lesson.',
  },
] as const;

/** The first administrator also gets these, so the demo shows every area (network edits, safeguarding lead). */
const ADMIN_DEMO_PERMISSIONS = [
  'USER_IS_ADMIN',
  'CAN_MODIFY_NETWORK',
  'CAN_ACCESS_SAFEGUARDING',
  'CAN_LEAD_SAFEGUARDING',
];

const ROLES = [
  { type: 'super-admin', local: 'head', first: 'Helen', last: 'Okafor' },
  { type: 'admin', local: 'office', first: 'Owen', last: 'Price' },
  { type: 'link-contact', local: 'senco', first: 'Lina', last: 'Contreras' },
  { type: 'parent', local: 'parent', first: 'Paula', last: 'Novak' },
] as const;

const TEACHER_NAMES = [
  ['Amira', 'Hussain'],
  ['Ben', 'Carter'],
  ['Chloe', 'Davies'],
  ['Daniel', 'Evans'],
  ['Esther', 'Fraser'],
  ['Farid', 'Ghani'],
  ['Grace', 'Hughes'],
  ['Harry', 'Iqbal'],
  ['Isla', 'Jones'],
  ['Jack', 'Kowalski'],
] as const;

const STUDENT_FIRST = [
  'Aisha',
  'Blake',
  'Caleb',
  'Demi',
  'Ethan',
  'Freya',
  'Gabriel',
  'Hana',
  'Isaac',
  'Jade',
  'Kai',
  'Lola',
  'Mason',
  'Nia',
  'Oscar',
  'Poppy',
  'Quinn',
  'Ruby',
  'Sami',
  'Tyler',
];
const STUDENT_LAST = [
  'Adeyemi',
  'Brown',
  'Clarke',
  'Dhillon',
  'Edwards',
  'Fisher',
  'Green',
  'Hall',
  'Islam',
  'Johnson',
  'Khan',
  'Lewis',
  'Morgan',
  'Nowak',
  "O'Brien",
  'Patel',
  'Quinn',
  'Roberts',
  'Singh',
  'Taylor',
];
const SUBJECTS = [
  'English',
  'Maths',
  'Science',
  'Art',
  'History',
  'Geography',
  'Music',
  'Computing',
  'PE',
  'French',
];
const HOBBIES = [
  'Drawing and comics',
  'Football',
  'Gaming with friends',
  'Baking',
  'Skateboarding',
  'Reading fantasy',
];
const CAREERS = ['Vet', 'Games designer', 'Electrician', 'Nurse', 'Chef', 'Mechanic', 'Youth worker'];

/**
 * Seeds a realistic organisation on the first start of an empty store (DEMO_DATA): partner schools
 * with a user of every customer role, teachers (one with a quality issue), students with one-page
 * profiles and contacts. It goes through the portal's own HTTP API as the first administrator, so
 * every record is validated and written as events exactly as a person would write it.
 */
@Injectable()
export class DemoData {
  constructor(
    private readonly sessions: SessionService,
    private readonly modules: ModuleRef,
    private readonly readiness: Readiness,
    private readonly runner: ProjectionRunner,
    @Inject(EVENT_STORE) private readonly store: EventStore,
  ) {}

  async seed(baseUrl: string, adminId: string, log: Logger): Promise<DemoSummary> {
    const started = Date.now();
    const { token, session } = await this.sessions.create(adminId);
    this.readiness.begin(stage(1), token);
    let minPosition = '0';
    const callWith =
      (asToken: string): DemoCall =>
      async (method, path, body) => {
        // Reads wait for the previous write to be in the read models (X-Min-Position below).
        const res = await fetch(`${baseUrl}/api/v1${path}`, {
          method,
          headers: {
            RequestVerificationToken: asToken,
            'X-Min-Position': minPosition,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const text = await res.text();
        const answer = {
          status: res.status,
          body: (text ? JSON.parse(text) : {}) as Record<string, unknown>,
        };
        if (res.status >= 300) throw new Error(`demo data: ${method} ${path} answered ${res.status} ${text}`);
        // A command's answer carries the event position to read after (a user's `position` is a job title).
        const position = answer.body.position;
        if (method !== 'GET' && typeof position === 'string' && /^\d+$/.test(position))
          minPosition = position;
        return answer;
      };
    const call = callWith(token);
    // Sessions of other demo people (a teacher takes their own lesson's register), ended with the seed's.
    const otherSessions: string[] = [];
    const callAs = async (userId: string): Promise<DemoCall> => {
      const other = await this.sessions.create(userId);
      otherSessions.push(other.session.id);
      this.readiness.admit(other.token);
      return callWith(other.token);
    };
    try {
      const logins: DemoSummary['logins'] = [];
      await call('PUT', `/users/${adminId}/permissions`, { permissions: ADMIN_DEMO_PERMISSIONS });
      const networks: Record<string, string> = {};
      for (const network of NETWORKS) {
        const { key, ...body } = network;
        networks[key] = (await call('POST', '/networks/', body)).body.id as string;
      }
      const catalogue = (await call('GET', '/permission-templates/permissions')).body as {
        view: { id: string }[];
        action: { id: string }[];
      };
      const viewOnly = catalogue.view.map((p) => p.id);
      await call('POST', '/permission-templates/', {
        name: 'School leadership (everything)',
        permissions: [...viewOnly, ...catalogue.action.map((p) => p.id)],
      });
      await call('POST', '/permission-templates/', { name: 'Read only', permissions: viewOnly });
      await call('POST', '/permission-templates/', {
        name: 'Attendance officer',
        permissions: viewOnly.filter((p) => /STUDENTS_DETAILS|ATTENDANCE|CONTACT/.test(p)),
      });
      this.readiness.begin(stage(2, SCHOOLS.length * (ROLES.length + 1)));
      const customers: Record<string, string> = {};
      /** `{school key}:{customer role}` → the partner user's id. */
      const partnerIds: Record<string, string> = {};
      /** The school's students, in creation order. */
      const studentsOf: Record<string, string[]> = {};
      for (const school of SCHOOLS) {
        customers[school.key] = (
          await call('POST', '/customers/', { name: school.name, network_id: networks[school.network] })
        ).body.id as string;
        this.readiness.advance();
        for (const role of ROLES) {
          const email = `${role.local}@${school.domain}`;
          const partner = await call('POST', '/users/', {
            email,
            first_name: role.first,
            last_name: `${role.last}`,
            user_type: 'partner',
            customer_id: customers[school.key],
            customer_type: role.type,
            network_id: networks[school.network],
            password: DEMO_PASSWORD,
          });
          logins.push({ email, role: `${role.type} at ${school.name}` });
          partnerIds[`${school.key}:${role.type}`] = partner.body.id as string;
          this.readiness.advance();
        }
      }

      this.readiness.begin(stage(3, TEACHER_NAMES.length));
      const teacherIds: string[] = [];
      for (const [i, [first, last]] of TEACHER_NAMES.entries()) {
        const email = `${first.toLowerCase()}.${last.toLowerCase()}@tutors.example.org`;
        // Every demo tutor but the one with a quality issue (index 7) may take cover (decision 0054).
        const cover = i === 7 ? [] : ['CAN_ACCESS_COVER_REQUESTS'];
        // The senior tutor is also a QA lead: the demo's published half-term report is theirs to sign.
        const extra =
          i === 0
            ? [
                'CAN_BLOCK_USERS',
                'CAN_SET_QUALITY_ISSUE',
                'CAN_IMPERSONATE',
                'CAN_QA_LEAD_REVIEW',
                'CAN_QA_LEAD_REVOKE',
                ...cover,
              ]
            : cover;
        const created = await call('POST', '/users/', {
          email,
          first_name: first,
          last_name: last,
          user_type: 'teacher',
          timezone: i % 4 === 3 ? 'Europe/Madrid' : 'Europe/London',
          network_id: i % 4 === 3 ? networks.spain : networks.england,
          notes: i === 0 ? 'Senior tutor; leads the maths team.' : undefined,
          permissions: extra,
          password: DEMO_PASSWORD,
        });
        teacherIds.push(created.body.id as string);
        this.readiness.advance();
        if (i < 2) logins.push({ email, role: i === 0 ? 'teacher (senior tutor)' : 'teacher' });
      }
      await call('PUT', `/users/${teacherIds[7]!}/set-quality-issue`, {
        reason: 'Two lessons started late this half term; follow-up observation booked.',
      });

      let profiles = 0;
      this.readiness.begin(stage(4, 40));
      for (let i = 0; i < 40; i++) {
        const school = SCHOOLS[i % SCHOOLS.length]!;
        const first = STUDENT_FIRST[i % STUDENT_FIRST.length]!;
        const last = STUDENT_LAST[(i * 7) % STUDENT_LAST.length]!;
        const email = `${first}.${last}.${i + 1}@students.example.org`.toLowerCase().replace(/'/g, '');
        const student = (
          await call('POST', '/users/', {
            email,
            first_name: first,
            last_name: last,
            user_type: 'student',
            customer_id: customers[school.key],
            network_id: networks[school.network],
            password: DEMO_PASSWORD,
          })
        ).body.id as string;
        if (i === 0) logins.push({ email, role: `student at ${school.name}` });
        (studentsOf[school.key] ??= []).push(student);
        await call('POST', `/users/${student}/contacts`, {
          name: `${['Mum', 'Dad', 'Carer', 'Grandparent'][i % 4]} of ${first}`,
          email: `family.${i + 1}@example.net`,
          phone: `07700 900${String(100 + i).padStart(3, '0')}`,
          relationship: ['Mother', 'Father', 'Foster carer', 'Grandparent'][i % 4],
          notes: null,
        });
        if (i % 5 !== 4) {
          const yearGroup = 7 + (i % 5);
          await call('POST', '/one-page-profiles/', {
            user_id: student,
            preferred_name: i % 3 === 0 ? first.slice(0, 3) : first,
            year_group: `Year ${yearGroup}`,
            age: yearGroup + 4,
            liked_about_me: 'Friendly, funny and good at helping younger pupils.',
            important_to_me: 'Knowing the plan for the day; my family; my pets.',
            support_methods: 'Short tasks with clear steps, movement breaks, visual timetable.',
            favourite_subjects: [SUBJECTS[i % SUBJECTS.length]!, SUBJECTS[(i + 3) % SUBJECTS.length]!],
            least_favourite_subjects: [SUBJECTS[(i + 5) % SUBJECTS.length]!],
            hobbies: HOBBIES[i % HOBBIES.length]!,
            career_aspirations: CAREERS[i % CAREERS.length]!,
            progress: i % 4 === 0 ? 0 : 25 * (i % 4) + 10,
          });
          profiles++;
        }
        this.readiness.advance();
      }
      this.readiness.begin(stage(5));
      // Selected students (decision 0034): each school's link contact is linked to three of its students,
      // its parent to one of them.
      for (const school of SCHOOLS) {
        const own = studentsOf[school.key] ?? [];
        await call('PUT', `/users/${partnerIds[`${school.key}:link-contact`]!}/linked-students`, {
          student_ids: own.slice(0, 3),
        });
        await call('PUT', `/users/${partnerIds[`${school.key}:parent`]!}/linked-students`, {
          student_ids: own.slice(0, 1),
        });
      }
      // Safeguarding: the categories reporters choose from, and a few concerns at different stages.
      const typeIds: string[] = [];
      for (const [name, guidance] of SAFEGUARDING_TYPES)
        typeIds.push(
          (await call('POST', '/safeguarding-incident-types/', { name, guidance })).body.id as string,
        );
      const students = (await call('GET', '/users/?type=students&size=3&sort_by=created_at')).body.items as {
        id: string;
      }[];
      const incidents: string[] = [];
      for (const [i, concern] of SAFEGUARDING_CONCERNS.entries()) {
        incidents.push(
          (
            await call('POST', '/safeguarding-incidents/', {
              student_ids: [students[i % students.length]!.id],
              type_ids: [typeIds[concern.type]!],
              occurred_at: new Date(Date.now() - concern.hoursAgo * 3_600_000).toISOString(),
              description: concern.description,
              immediate_action: concern.action,
              lead_told_verbally: i === 0,
              risk_level: concern.risk,
            })
          ).body.id as string,
        );
      }
      await call('POST', `/safeguarding-incidents/${incidents[1]!}/acknowledge`, {});
      await call('POST', `/safeguarding-incidents/${incidents[1]!}/review`, {});
      // The two concerns nobody acknowledged have escalated, as they would SAFEGUARDING_ESCALATION_MINUTES
      // after their report (the read waits until the reports are in the read models).
      await call('GET', '/safeguarding-incidents/?status=reported');
      const escalation = this.modules.get(EscalationScheduler, { strict: false });
      await escalation.runOnce(new Date(Date.now() + escalation.minutes * 60_000 + 1000));
      // Teaching (issue 15): each area seeds its own part, in order, from the people made above.
      this.readiness.begin(stage(6, TEACHING_DEMO.length));
      const world = {
        networks,
        customers,
        partnerIds,
        studentsOf,
        teacherIds,
        teaching: {},
        apiBase: baseUrl,
        apiToken: token,
        callAs,
      };
      for (const part of TEACHING_DEMO) {
        await part.seed(call, world);
        this.readiness.advance();
      }
      // Ready means every list shows all of it: wait until the projections hold the last event.
      this.readiness.begin(stage(7));
      if (!(await this.runner.waitForPosition(await this.store.headPosition(), 60_000)))
        log.warn('demo data: the read models had not caught up after 60 s');

      const summary: DemoSummary = {
        networks: NETWORKS.length,
        customers: SCHOOLS.length,
        partners: SCHOOLS.length * ROLES.length,
        teachers: TEACHER_NAMES.length,
        students: 40,
        profiles,
        password: DEMO_PASSWORD,
        logins,
        ms: Date.now() - started,
      };
      log.info({ ...summary, logins: undefined }, 'demo data seeded');
      return summary;
    } finally {
      for (const id of otherSessions) await this.sessions.revoke(id);
      await this.sessions.revoke(session.id);
    }
  }
}

export interface DemoSummary {
  networks: number;
  customers: number;
  partners: number;
  teachers: number;
  students: number;
  profiles: number;
  password: string;
  logins: { email: string; role: string }[];
  ms: number;
}
