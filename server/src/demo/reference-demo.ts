import type { DemoPart } from './teaching-demo.js';

/**
 * Teaching reference data for the demo (decision 0049): subjects, year groups Reception..Year 13 with
 * their key stages, three products, and the 2026/27 term calendars of the England and Spain networks.
 * Ids go to `world.teaching` as `subject:{name}`, `yearGroup:{name}`, `product:{name}` and
 * `termCalendar:{networkKey}`.
 */
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

const YEAR_GROUPS: [string, string][] = [
  ['Reception', 'EYFS'],
  ['Year 1', 'KS1'],
  ['Year 2', 'KS1'],
  ['Year 3', 'KS2'],
  ['Year 4', 'KS2'],
  ['Year 5', 'KS2'],
  ['Year 6', 'KS2'],
  ['Year 7', 'KS3'],
  ['Year 8', 'KS3'],
  ['Year 9', 'KS3'],
  ['Year 10', 'KS4'],
  ['Year 11', 'KS4'],
  ['Year 12', 'KS5'],
  ['Year 13', 'KS5'],
];

const PRODUCTS = [
  {
    name: '1:1 online tuition',
    delivery_mode: 'online-1to1',
    default_duration_minutes: 60,
    max_group_size: 1,
  },
  {
    name: 'Small group online',
    delivery_mode: 'online-group',
    default_duration_minutes: 60,
    max_group_size: 6,
  },
  {
    name: 'Mentoring session',
    delivery_mode: 'online-1to1',
    default_duration_minutes: 45,
    max_group_size: 1,
  },
];

const days = (from: string, count: number, reason: string) =>
  Array.from({ length: count }, (_, i) => {
    const d = new Date(`${from}T00:00:00Z`);
    d.setUTCDate(d.getUTCDate() + i);
    return { date: d.toISOString().slice(0, 10), reason };
  });

const CALENDARS: Record<string, { name: string; terms: object[]; closures: object[] }> = {
  england: {
    name: 'England 2026/27',
    terms: [
      { name: 'Autumn', first_day: '2026-09-02', last_day: '2026-12-18' },
      { name: 'Spring', first_day: '2027-01-05', last_day: '2027-03-26' },
      { name: 'Summer', first_day: '2027-04-12', last_day: '2027-07-21' },
    ],
    closures: [
      ...days('2026-10-26', 5, 'Autumn half term'),
      ...days('2027-02-15', 5, 'Spring half term'),
      { date: '2027-05-03', reason: 'Early May bank holiday' },
      ...days('2027-05-31', 5, 'Summer half term'),
    ],
  },
  spain: {
    name: 'International (Madrid) 2026/27',
    terms: [
      { name: 'Primer trimestre', first_day: '2026-09-08', last_day: '2026-12-22' },
      { name: 'Segundo trimestre', first_day: '2027-01-08', last_day: '2027-03-19' },
      { name: 'Tercer trimestre', first_day: '2027-03-30', last_day: '2027-06-22' },
    ],
    closures: [
      { date: '2026-10-12', reason: 'Fiesta Nacional de España' },
      { date: '2026-12-07', reason: 'Puente de la Constitución' },
      { date: '2026-12-08', reason: 'Inmaculada Concepción' },
    ],
  },
};

export const referenceDemo: DemoPart = {
  name: 'reference data and term calendars',
  async seed(call, world) {
    const id = (answer: { body: Record<string, unknown> }) => answer.body.id as string;
    for (const name of SUBJECTS)
      world.teaching[`subject:${name}`] = id(await call('POST', '/subjects/', { name }));
    for (const [name, key_stage] of YEAR_GROUPS)
      world.teaching[`yearGroup:${name}`] = id(await call('POST', '/year-groups/', { name, key_stage }));
    for (const product of PRODUCTS)
      world.teaching[`product:${product.name}`] = id(await call('POST', '/products/', product));
    for (const [networkKey, calendar] of Object.entries(CALENDARS)) {
      const networkId = world.networks[networkKey];
      if (!networkId) continue;
      world.teaching[`termCalendar:${networkKey}`] = id(
        await call('POST', '/term-calendars/', { network_id: networkId, ...calendar }),
      );
    }
  },
};
