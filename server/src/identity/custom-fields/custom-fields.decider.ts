import {
  CUSTOM_FIELDS_STREAM,
  type CustomFieldDefinition,
  type CustomFieldsEvent,
} from '@portal/projections';
import { DomainError } from '../../platform/domain/domain-error.js';
import type { Aggregate } from '../../platform/event-store/aggregate.js';

export type CustomFieldsState = CustomFieldDefinition[];
export type CustomFieldValue = string | number | null;

export const MAX_CUSTOM_FIELDS = 100;

/** Each definition event replaces the whole list. */
export const evolveCustomFields = (_state: CustomFieldsState, e: CustomFieldsEvent): CustomFieldsState =>
  e.data.fields;

export const foldCustomFields = (events: CustomFieldsEvent[]): CustomFieldsState =>
  events.reduce<CustomFieldsState>(evolveCustomFields, []);

export interface DefineCustomFields {
  type: 'DefineCustomFields';
  fields: CustomFieldDefinition[];
}

/** `yyyy-MM-dd` naming a real calendar day. */
export function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const time = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === value;
}

const fail = (detail: string): never => {
  throw new DomainError('invalid', detail);
};

/**
 * Replaces the definitions: names unique (ignoring case), ids unique, select fields with at least one
 * option and no duplicates, other types without options. The same list again writes nothing.
 */
export function decideCustomFields(
  command: DefineCustomFields,
  state: CustomFieldsState,
): CustomFieldsEvent[] {
  const fields = command.fields.map((f) => ({
    ...f,
    name: f.name.trim(),
    options: f.options.map((o) => o.trim()),
  }));
  if (fields.length > MAX_CUSTOM_FIELDS) fail(`items: at most ${MAX_CUSTOM_FIELDS} fields`);
  fields.forEach((f, i) => {
    if (!f.name) fail(`items.${i}.name: must not be empty`);
    const sameName = fields.findIndex((g) => g.name.toLowerCase() === f.name.toLowerCase());
    if (sameName < i) fail(`items.${i}.name: "${f.name}" is already the name of items.${sameName}`);
    const sameId = fields.findIndex((g) => g.id === f.id);
    if (sameId < i) fail(`items.${i}.id: duplicates items.${sameId}.id`);
    if (f.type === 'select') {
      if (f.options.length === 0) fail(`items.${i}.options: a select field needs at least one option`);
      if (f.options.some((o) => !o)) fail(`items.${i}.options: options must not be empty`);
      const duplicate = f.options.find((o, k) => f.options.indexOf(o) !== k);
      if (duplicate !== undefined) fail(`items.${i}.options: "${duplicate}" appears twice`);
    } else if (f.options.length > 0) fail(`items.${i}.options: only select fields have options`);
  });
  if (JSON.stringify(fields) === JSON.stringify(state)) return [];
  return [{ type: 'UserCustomFieldsDefined', data: { fields } }];
}

/**
 * Checks custom field values of a user against the definitions and returns them normalised. On
 * create every required field needs a value; `null` clears a value (not allowed for required fields).
 */
export function checkCustomFieldValues(
  definitions: CustomFieldsState,
  values: Record<string, unknown>,
  mode: 'create' | 'update',
): Record<string, CustomFieldValue> {
  const byId = new Map(definitions.map((d) => [d.id, d]));
  const out: Record<string, CustomFieldValue> = {};
  for (const [id, value] of Object.entries(values)) {
    const field = `custom_fields.${id}`;
    const def = byId.get(id) ?? fail(`${field}: no such custom field`);
    if (value === null) {
      if (def.required) fail(`${field}: "${def.name}" is required`);
      out[id] = null;
      continue;
    }
    switch (def.type) {
      case 'text':
        if (typeof value !== 'string' || value.length > 2000)
          fail(`${field}: "${def.name}" must be text of at most 2000 characters`);
        out[id] = value as string;
        break;
      case 'number':
        if (typeof value !== 'number' || !Number.isFinite(value))
          fail(`${field}: "${def.name}" must be a number`);
        out[id] = value as number;
        break;
      case 'date': {
        if (typeof value !== 'string' || !isCalendarDate(value))
          fail(`${field}: "${def.name}" must be a date in the format yyyy-MM-dd`);
        out[id] = value as string;
        break;
      }
      case 'select':
        if (typeof value !== 'string' || !def.options.includes(value))
          fail(`${field}: "${def.name}" must be one of ${def.options.map((o) => `"${o}"`).join(', ')}`);
        out[id] = value as string;
        break;
    }
  }
  if (mode === 'create')
    for (const def of definitions)
      if (def.required && (out[def.id] === undefined || out[def.id] === null))
        fail(`custom_fields.${def.id}: "${def.name}" is required`);
  return out;
}

/** The one list of custom field definitions: stream `user-custom-fields`. */
export const customFieldsAggregate: Aggregate<CustomFieldsState, DefineCustomFields, CustomFieldsEvent> = {
  stream: () => CUSTOM_FIELDS_STREAM,
  idOf: () => CUSTOM_FIELDS_STREAM,
  initialState: () => [],
  evolve: evolveCustomFields,
  decide: decideCustomFields,
};
