import { describe, expect, it } from '@jest/globals';
import { DomainError, type ErrorKind } from '../platform/domain/domain-error.js';
import type { OnePageProfileEvent, OnePageProfileFields } from '@portal/projections';
import {
  decideOnePageProfile,
  foldOnePageProfile,
  type OnePageProfileCommand,
} from './one-page-profile.decider.js';

const USER = '11111111-1111-4111-8111-111111111111';
const PROFILE = '22222222-2222-4222-8222-222222222222';
const fields: OnePageProfileFields = {
  yearGroupId: null,
  yearGroup: 'Year 9',
  preferredName: 'Sam',
  age: 14,
  likedAboutMe: 'Kind',
  importantToMe: 'My dog',
  supportMethods: 'Short tasks',
  favouriteSubjects: ['Art'],
  leastFavouriteSubjects: ['French'],
  hobbies: 'Drawing',
  careerAspirations: 'Animator',
  notes: null,
  progress: 40,
};
const created: OnePageProfileEvent = {
  type: 'OnePageProfileCreated',
  data: { profileId: PROFILE, userId: USER, ...fields },
};

const rows: Array<{
  name: string;
  given: OnePageProfileEvent[];
  when: OnePageProfileCommand;
  then: OnePageProfileEvent[] | ErrorKind;
}> = [
  {
    name: 'creating a profile records every field',
    given: [],
    when: { type: 'CreateOnePageProfile', profileId: PROFILE, userId: USER, fields },
    then: [created],
  },
  {
    name: 'a second profile for the same student is a conflict',
    given: [created],
    when: { type: 'CreateOnePageProfile', profileId: PROFILE, userId: USER, fields },
    then: 'conflict',
  },
  {
    name: 'an update records only what changed',
    given: [created],
    when: {
      type: 'UpdateOnePageProfile',
      userId: USER,
      changes: { progress: 80, hobbies: 'Drawing', favouriteSubjects: ['Art', 'Music'] },
    },
    then: [
      {
        type: 'OnePageProfileUpdated',
        data: {
          profileId: PROFILE,
          userId: USER,
          changes: { progress: 80, favouriteSubjects: ['Art', 'Music'] },
        },
      },
    ],
  },
  {
    name: 'an update that changes nothing writes nothing',
    given: [
      created,
      { type: 'OnePageProfileUpdated', data: { profileId: PROFILE, userId: USER, changes: { age: 15 } } },
    ],
    when: { type: 'UpdateOnePageProfile', userId: USER, changes: { age: 15 } },
    then: [],
  },
  {
    name: 'updating a missing profile is not found',
    given: [],
    when: { type: 'UpdateOnePageProfile', userId: USER, changes: { progress: 10 } },
    then: 'not_found',
  },
];

describe('one-page profile decider', () => {
  it.each(rows)('$name', ({ given, when, then }) => {
    const run = () => decideOnePageProfile(when, foldOnePageProfile(given));
    if (typeof then === 'string') {
      expect(run).toThrow(DomainError);
      try {
        run();
      } catch (e) {
        expect((e as DomainError).kind).toBe(then);
      }
    } else expect(run()).toEqual(then);
  });
});
