import { describe, expect, it } from '@jest/globals';
import { thrownKind } from '../../platform/domain/domain-error.js';
import type { CustomFieldDefinition, CustomFieldsEvent } from '@portal/projections';
import { checkCustomFieldValues, decideCustomFields, foldCustomFields } from './custom-fields.decider.js';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const text: CustomFieldDefinition = {
  id: id(1),
  name: 'Notes for tutors',
  type: 'text',
  options: [],
  required: false,
};
const size: CustomFieldDefinition = {
  id: id(2),
  name: 'T-shirt size',
  type: 'select',
  options: ['S', 'M', 'L'],
  required: true,
};
const defined = (fields: CustomFieldDefinition[]): CustomFieldsEvent => ({
  type: 'UserCustomFieldsDefined',
  data: { fields },
});
const define = (fields: CustomFieldDefinition[]) => ({ type: 'DefineCustomFields' as const, fields });

type Row = [string, CustomFieldsEvent[], CustomFieldDefinition[], CustomFieldsEvent[] | RegExp];
const table: Row[] = [
  ['define the first fields', [], [text, size], [defined([text, size])]],
  [
    'names and options are trimmed',
    [],
    [{ ...size, name: ' T-shirt size ', options: [' S', 'M '] }],
    [defined([{ ...size, options: ['S', 'M'] }])],
  ],
  ['the same list again writes nothing', [defined([text, size])], [text, size], []],
  ['an empty list removes every field', [defined([text])], [], [defined([])]],
  [
    'names are unique ignoring case',
    [],
    [text, { ...size, name: 'NOTES FOR TUTORS' }],
    /^items\.1\.name: "NOTES FOR TUTORS" is already the name of items\.0$/,
  ],
  ['ids are unique', [], [text, { ...size, id: id(1) }], /^items\.1\.id: duplicates items\.0\.id$/],
  [
    'a select needs options',
    [],
    [{ ...size, options: [] }],
    /^items\.0\.options: a select field needs at least one option$/,
  ],
  ['options are unique', [], [{ ...size, options: ['S', 'S'] }], /^items\.0\.options: "S" appears twice$/],
  [
    'only selects have options',
    [],
    [{ ...text, options: ['x'] }],
    /^items\.0\.options: only select fields have options$/,
  ],
  ['a name must not be blank', [], [{ ...text, name: '  ' }], /^items\.0\.name: must not be empty$/],
];

describe('custom fields decider: given events, when the list is replaced, then events or error', () => {
  it.each(table)('%s', (_name, given, fields, then) => {
    const state = foldCustomFields(given);
    if (Array.isArray(then)) {
      expect(decideCustomFields(define(fields), state)).toEqual(then);
      return;
    }
    expect(thrownKind(() => decideCustomFields(define(fields), state))).toBe('invalid');
    expect(() => decideCustomFields(define(fields), state)).toThrow(then);
  });
});

describe('custom field values against the definitions', () => {
  const defs: CustomFieldDefinition[] = [
    text,
    size,
    { id: id(3), name: 'Siblings', type: 'number', options: [], required: false },
    { id: id(4), name: 'Start', type: 'date', options: [], required: false },
  ];
  it('accepts values of the right type and requires required fields on create', () => {
    expect(
      checkCustomFieldValues(
        defs,
        { [id(2)]: 'M', [id(3)]: 2, [id(4)]: '2030-09-01', [id(1)]: null },
        'create',
      ),
    ).toEqual({
      [id(2)]: 'M',
      [id(3)]: 2,
      [id(4)]: '2030-09-01',
      [id(1)]: null,
    });
    expect(() => checkCustomFieldValues(defs, {}, 'create')).toThrow(
      /^custom_fields\.\S+: "T-shirt size" is required$/,
    );
    expect(checkCustomFieldValues(defs, { [id(3)]: 1 }, 'update')).toEqual({ [id(3)]: 1 });
  });
  it.each([
    [{ [id(2)]: 'XL' }, /must be one of "S", "M", "L"/],
    [{ [id(2)]: null }, /is required/],
    [{ [id(3)]: '2' }, /must be a number/],
    [{ [id(4)]: '2030-02-30' }, /must be a date/],
    [{ [id(1)]: 5 }, /must be text/],
    [{ [id(9)]: 'x' }, /no such custom field/],
  ])('refuses %j', (values, detail) => {
    expect(() => checkCustomFieldValues(defs, values, 'update')).toThrow(detail);
  });
});
