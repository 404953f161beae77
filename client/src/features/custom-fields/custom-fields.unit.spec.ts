import { describe, expect, it } from '@jest/globals';
import { ApiError } from '../../shared/api/client';
import { changed, changedValues, definitionErrors, draftsOf, itemsOf, valueFromInput } from './custom-fields';

const DIET = { id: 'a1', name: 'Dietary needs', type: 'text' as const, options: [], required: false };
const YEAR = { id: 'b2', name: 'Year', type: 'select' as const, options: ['7', '8'], required: true };

describe('custom field definitions form', () => {
  it('sends the complete list: ids kept, names trimmed, options only for choice fields', () => {
    const drafts = [
      ...draftsOf([DIET]),
      { key: 'new-1', name: '  Allergies ', type: 'text' as const, options: ['left over'], required: true },
      { key: 'new-2', name: 'House', type: 'select' as const, options: [' Red ', 'Blue'], required: false },
    ];
    expect(itemsOf(drafts)).toEqual([
      { id: 'a1', name: 'Dietary needs', type: 'text', options: [], required: false },
      { name: 'Allergies', type: 'text', options: [], required: true },
      { name: 'House', type: 'select', options: ['Red', 'Blue'], required: false },
    ]);
  });

  it('is changed only when the list sent would differ', () => {
    const drafts = draftsOf([DIET, YEAR]);
    expect(changed([DIET, YEAR], drafts)).toBe(false);
    expect(changed([DIET, YEAR], [{ ...drafts[0]!, name: 'Dietary needs ' }, drafts[1]!])).toBe(false);
    expect(changed([DIET, YEAR], [drafts[1]!, drafts[0]!])).toBe(true);
    expect(changed([DIET, YEAR], drafts.slice(1))).toBe(true);
  });

  it('puts the server’s messages on the inputs they name', () => {
    const decider = new ApiError(422, 'items.1.name: "Year" is already the name of items.0', {}, 'x');
    expect(definitionErrors(decider)).toEqual({ 'items.1.name': '"Year" is already the name of items.0' });
    const pipe = new ApiError(
      422,
      'items.0.type: type must be one of ...',
      { errors: [{ field: 'items.0.type', message: 'type must be one of the following values' }] },
      'x',
    );
    expect(definitionErrors(pipe)).toEqual({ 'items.0.type': 'type must be one of the following values' });
    const list = new ApiError(422, 'items: at most 100 fields', {}, 'x');
    expect(definitionErrors(list)).toEqual({ items: 'at most 100 fields' });
    expect(definitionErrors(new ApiError(500, 'boom', {}, 'x'))).toEqual({});
  });
});

describe('custom field values', () => {
  it('turns input text into the server’s value: numbers as numbers, empty as null (clear)', () => {
    expect(valueFromInput('number', ' 12.5 ')).toBe(12.5);
    expect(valueFromInput('number', 'twelve')).toBe('twelve');
    expect(valueFromInput('date', '2026-09-01')).toBe('2026-09-01');
    expect(valueFromInput('text', '')).toBeNull();
    expect(valueFromInput('select', '8')).toBe('8');
  });

  it('sends only the values that changed', () => {
    expect(changedValues({ a1: 'Vegan', b2: '7' }, { a1: 'Vegan', b2: '8', c3: null })).toEqual({ b2: '8' });
    expect(changedValues({ a1: 'Vegan' }, { a1: null })).toEqual({ a1: null });
    expect(changedValues({ n: 3 }, { n: 3 })).toEqual({});
  });
});
