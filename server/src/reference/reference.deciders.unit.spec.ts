import { describe, expect, it } from '@jest/globals';
import type { ProductEvent, SubjectEvent, YearGroupEvent } from '@portal/projections';
import { DomainError, type ErrorKind } from '../platform/domain/domain-error.js';
import { decideProduct, foldProduct, type ProductCommand } from './product.decider.js';
import { decideSubject, foldSubject, type SubjectCommand } from './subject.decider.js';
import { decideYearGroup, foldYearGroup, type YearGroupCommand } from './year-group.decider.js';

const ID = '11111111-1111-4111-8111-111111111111';

interface Row<C, E> {
  name: string;
  given: E[];
  when: C;
  /** The events written, or the error's kind and (part of) its detail. */
  then: E[] | [ErrorKind, string];
}

function table<C, E>(rows: Row<C, E>[], decide: (c: C, events: E[]) => E[]) {
  it.each(rows)('$name', ({ given, when, then }) => {
    if (Array.isArray(then) && typeof then[0] === 'string') {
      const [kind, detail] = then as [ErrorKind, string];
      let error: unknown;
      try {
        decide(when, given);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(DomainError);
      expect((error as DomainError).kind).toBe(kind);
      expect((error as DomainError).detail).toContain(detail);
    } else expect(decide(when, given)).toEqual(then);
  });
}

describe('subject decider', () => {
  const created: SubjectEvent = { type: 'SubjectCreated', data: { subjectId: ID, name: 'Maths' } };
  table<SubjectCommand, SubjectEvent>(
    [
      {
        name: 'creates with the trimmed name',
        given: [],
        when: { type: 'CreateSubject', subjectId: ID, name: ' Maths ' },
        then: [created],
      },
      {
        name: 'a blank name is invalid',
        given: [],
        when: { type: 'CreateSubject', subjectId: ID, name: '  ' },
        then: ['invalid', 'name:'],
      },
      {
        name: 'creating twice is a conflict',
        given: [created],
        when: { type: 'CreateSubject', subjectId: ID, name: 'Maths' },
        then: ['conflict', 'already exists'],
      },
      {
        name: 'renames',
        given: [created],
        when: { type: 'RenameSubject', subjectId: ID, name: 'Mathematics' },
        then: [{ type: 'SubjectRenamed', data: { subjectId: ID, name: 'Mathematics' } }],
      },
      {
        name: 'renaming to the same name writes nothing',
        given: [created],
        when: { type: 'RenameSubject', subjectId: ID, name: 'Maths' },
        then: [],
      },
      {
        name: 'renaming an unknown subject is not found',
        given: [],
        when: { type: 'RenameSubject', subjectId: ID, name: 'X' },
        then: ['not_found', 'Subject'],
      },
    ],
    (c, events) => decideSubject(c, foldSubject(events)),
  );
});

describe('year group decider', () => {
  const created: YearGroupEvent = {
    type: 'YearGroupCreated',
    data: { yearGroupId: ID, name: 'Year 7', keyStage: 'KS3' },
  };
  table<YearGroupCommand, YearGroupEvent>(
    [
      {
        name: 'creates with a key stage',
        given: [],
        when: { type: 'CreateYearGroup', yearGroupId: ID, name: 'Year 7', keyStage: 'KS3' },
        then: [created],
      },
      {
        name: 'an unknown key stage is invalid',
        given: [],
        when: { type: 'CreateYearGroup', yearGroupId: ID, name: 'Year 7', keyStage: 'KS9' },
        then: ['invalid', 'key_stage: must be one of EYFS, KS1, KS2, KS3, KS4, KS5'],
      },
      {
        name: 'creating twice is a conflict',
        given: [created],
        when: { type: 'CreateYearGroup', yearGroupId: ID, name: 'Year 7', keyStage: 'KS3' },
        then: ['conflict', 'Year group'],
      },
      {
        name: 'an update records each change separately',
        given: [created],
        when: { type: 'UpdateYearGroup', yearGroupId: ID, name: 'Year 10', keyStage: 'KS4' },
        then: [
          { type: 'YearGroupRenamed', data: { yearGroupId: ID, name: 'Year 10' } },
          { type: 'YearGroupKeyStageChanged', data: { yearGroupId: ID, keyStage: 'KS4' } },
        ],
      },
      {
        name: 'an update that changes nothing writes nothing',
        given: [created],
        when: { type: 'UpdateYearGroup', yearGroupId: ID, keyStage: 'KS3' },
        then: [],
      },
      {
        name: 'an update with a bad key stage is invalid',
        given: [created],
        when: { type: 'UpdateYearGroup', yearGroupId: ID, keyStage: 'ks3' },
        then: ['invalid', 'key_stage'],
      },
      {
        name: 'updating an unknown year group is not found',
        given: [],
        when: { type: 'UpdateYearGroup', yearGroupId: ID, name: 'X' },
        then: ['not_found', 'Year group'],
      },
    ],
    (c, events) => decideYearGroup(c, foldYearGroup(events)),
  );
});

describe('product decider', () => {
  const details = {
    name: 'Small group online',
    deliveryMode: 'online-group',
    defaultDurationMinutes: 60,
    maxGroupSize: 6,
  } as const;
  const created: ProductEvent = { type: 'ProductCreated', data: { productId: ID, ...details } };
  const create = (over: Partial<Record<keyof typeof details, unknown>>): ProductCommand =>
    ({ type: 'CreateProduct', productId: ID, ...details, ...over }) as ProductCommand;
  table<ProductCommand, ProductEvent>(
    [
      { name: 'creates with all details', given: [], when: create({}), then: [created] },
      {
        name: 'an unknown delivery mode is invalid',
        given: [],
        when: create({ deliveryMode: 'carrier-pigeon' }),
        then: ['invalid', 'delivery_mode:'],
      },
      {
        name: 'a lesson under 15 minutes is invalid',
        given: [],
        when: create({ defaultDurationMinutes: 14 }),
        then: ['invalid', 'default_duration_minutes:'],
      },
      {
        name: 'a lesson over 12 hours is invalid',
        given: [],
        when: create({ defaultDurationMinutes: 721 }),
        then: ['invalid', 'default_duration_minutes:'],
      },
      {
        name: 'exactly 15 and 720 minutes are fine',
        given: [],
        when: create({ defaultDurationMinutes: 720 }),
        then: [{ type: 'ProductCreated', data: { productId: ID, ...details, defaultDurationMinutes: 720 } }],
      },
      {
        name: 'a group of 0 is invalid',
        given: [],
        when: create({ maxGroupSize: 0 }),
        then: ['invalid', 'max_group_size:'],
      },
      {
        name: 'a group of 61 is invalid',
        given: [],
        when: create({ maxGroupSize: 61 }),
        then: ['invalid', 'max_group_size:'],
      },
      {
        name: 'a 1:1 product takes exactly one student',
        given: [],
        when: create({ deliveryMode: 'online-1to1', maxGroupSize: 2 }),
        then: ['invalid', 'max_group_size: a 1:1'],
      },
      {
        name: 'creating twice is a conflict',
        given: [created],
        when: create({}),
        then: ['conflict', 'Product'],
      },
      {
        name: 'an update records only what changed',
        given: [created],
        when: { type: 'UpdateProduct', productId: ID, name: 'Small group online', maxGroupSize: 8 },
        then: [{ type: 'ProductDetailsChanged', data: { productId: ID, maxGroupSize: 8 } }],
      },
      {
        name: 'an update is checked against the whole product it leaves (1:1 with a group of 6)',
        given: [created],
        when: { type: 'UpdateProduct', productId: ID, deliveryMode: 'online-1to1' },
        then: ['invalid', 'max_group_size: a 1:1'],
      },
      {
        name: 'an update that changes nothing writes nothing',
        given: [created],
        when: { type: 'UpdateProduct', productId: ID, defaultDurationMinutes: 60 },
        then: [],
      },
      {
        name: 'updating an unknown product is not found',
        given: [],
        when: { type: 'UpdateProduct', productId: ID, name: 'X' },
        then: ['not_found', 'Product'],
      },
    ],
    (c, events) => decideProduct(c, foldProduct(events)),
  );
});
