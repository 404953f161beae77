import { expect } from '@jest/globals';
import {
  ERASED,
  onePageProfilesProjection,
  onePageProfileStream,
  type OnePageProfileFields,
  type ProjectionEvent,
} from '@portal/projections';
import { describeFoldInBatches, record } from '../platform/testing/projection-contract.js';

/**
 * Decision 0089: a batch of one-page profile events folds the profiles it creates in memory and writes
 * their rows once; changes to profiles that existed before the batch go to SQL, and an erasure goes to
 * both. Whatever the batch boundaries, the rows must be those of event-by-event apply. The history walks
 * every rule: a creation, changes of text, numbers and subject lists, a change back to null, a second
 * creation, a change before its profile's creation, erasures (of a profile from before the batch and of
 * ones the batch made), ids in capitals. Nothing changes a profile after its student's erasure: an
 * erased student is deleted, so no command reaches the profile again.
 */
const id = (n: number) => `abcdef00-0000-4000-8000-${String(n).padStart(12, '0')}`;
const [ANN, BEN, CAT, DAN] = [id(1), id(2), id(3), id(4)];
const profileOf = (userId: string) => id(100 + Number(userId.slice(-2)));
const YEAR_7 = id(90);

const fields = (preferredName: string | null, progress: number): OnePageProfileFields => ({
  yearGroupId: YEAR_7,
  yearGroup: 'Year 7',
  preferredName,
  age: 11,
  likedAboutMe: 'Kind',
  importantToMe: null,
  supportMethods: 'Visual timetable',
  favouriteSubjects: ['Art'],
  leastFavouriteSubjects: [],
  hobbies: null,
  careerAspirations: null,
  notes: 'Note',
  progress,
});
const created = (
  userId: string,
  preferredName: string | null,
  progress = 40,
  profileId = profileOf(userId),
) =>
  [
    onePageProfileStream(userId.toLowerCase()),
    'OnePageProfileCreated',
    { profileId, userId, ...fields(preferredName, progress) },
  ] as const;
const updated = (userId: string, changes: Partial<OnePageProfileFields>, profileId = profileOf(userId)) =>
  [
    onePageProfileStream(userId.toLowerCase()),
    'OnePageProfileUpdated',
    { profileId, userId, changes },
  ] as const;
const erased = (userId: string) => [`user-${userId}`, 'UserPersonalDataErased', { userId }] as const;

const history: ProjectionEvent[] = record([
  created(ANN, 'Annie'), // 0
  updated(ANN, { hobbies: 'Chess' }), // 1
  updated(CAT, { preferredName: 'Too early' }), // 2: before CAT's profile: nothing
  created(BEN.toUpperCase(), 'Benny', 10, profileOf(BEN).toUpperCase()), // 3
  updated(ANN, { progress: 80, importantToMe: 'Family' }), // 4
  updated(BEN, { favouriteSubjects: ['Maths', 'Art'], age: 12 }), // 5
  created(CAT, null), // 6
  erased(ANN), // 7: a profile from before the batch, when cut after 3
  updated(BEN, { careerAspirations: 'Vet', progress: 60 }), // 8
  created(BEN, 'Second creation', 99), // 9: keeps the row
  updated(CAT, { leastFavouriteSubjects: ['PE'], notes: null }), // 10
  updated(BEN, { hobbies: 'Football' }), // 11
  created(DAN, 'Danny', 20), // 12
  erased(BEN), // 13: a profile the batch made
  updated(DAN.toUpperCase(), { yearGroupId: null, yearGroup: null }, profileOf(DAN).toUpperCase()), // 14
  updated(CAT, { preferredName: 'Cat', progress: 70 }), // 15
  erased(CAT), // 16: null text stays null
  updated(DAN, { preferredName: 'Dan' }), // 17
  updated(DAN, { hobbies: 'Drums' }), // 18
  updated(DAN, { age: 13 }), // 19
]);

describeFoldInBatches(
  'one-page profiles projection',
  'portal_one_page_profile_fold',
  onePageProfilesProjection,
  history,
  {
    title: 'event by event, the history sets every one-page profile rule',
    async check(sql) {
      const { rows } = await sql.query(
        `SELECT id::text, user_id::text, year_group, preferred_name, age, liked_about_me, important_to_me,
                favourite_subjects, least_favourite_subjects, hobbies, career_aspirations, notes, progress,
                version::int
           FROM rm_one_page_profiles ORDER BY user_id`,
      );
      const kept = {
        year_group: 'Year 7',
        age: 11,
        liked_about_me: 'Kind',
        important_to_me: null,
        favourite_subjects: ['Art'],
        least_favourite_subjects: [],
        hobbies: null,
        career_aspirations: null,
        notes: 'Note',
      };
      expect(rows).toEqual([
        {
          ...kept,
          id: profileOf(ANN),
          user_id: ANN,
          preferred_name: ERASED,
          liked_about_me: ERASED,
          important_to_me: ERASED,
          hobbies: ERASED,
          notes: ERASED,
          progress: 80,
          version: 2,
        },
        {
          ...kept,
          id: profileOf(BEN),
          user_id: BEN,
          preferred_name: ERASED,
          age: 12,
          liked_about_me: ERASED,
          favourite_subjects: ['Maths', 'Art'],
          hobbies: ERASED,
          career_aspirations: ERASED,
          notes: ERASED,
          progress: 60,
          version: 4,
        },
        {
          ...kept,
          id: profileOf(CAT),
          user_id: CAT,
          preferred_name: ERASED,
          liked_about_me: ERASED,
          least_favourite_subjects: ['PE'],
          notes: null,
          progress: 70,
          version: 3, // its stream began with the change that came too early
        },
        {
          ...kept,
          id: profileOf(DAN),
          user_id: DAN,
          year_group: null,
          preferred_name: 'Dan',
          age: 13,
          hobbies: 'Drums',
          progress: 20,
          version: 4,
        },
      ]);
    },
  },
);
