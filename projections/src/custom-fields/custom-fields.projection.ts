import { defineProjection } from '../projection.js';

/**
 * The custom user fields administrators define (spec §6 "custom fields"), as one stream
 * `user-custom-fields`: each `UserCustomFieldsDefined` replaces the whole list (docs/decisions/0017).
 */
export type CustomFieldType = 'text' | 'number' | 'date' | 'select';
export const CUSTOM_FIELD_TYPES: readonly CustomFieldType[] = ['text', 'number', 'date', 'select'];

export interface CustomFieldDefinition {
  id: string;
  name: string;
  type: CustomFieldType;
  /** The choices of a `select` field; empty for the other types. */
  options: string[];
  required: boolean;
}

export interface UserCustomFieldsDefinedData {
  fields: CustomFieldDefinition[];
}

export type CustomFieldsEvent = { type: 'UserCustomFieldsDefined'; data: UserCustomFieldsDefinedData };

export const CUSTOM_FIELDS_STREAM = 'user-custom-fields';
export const CUSTOM_FIELDS_EVENT_TYPES: readonly CustomFieldsEvent['type'][] = ['UserCustomFieldsDefined'];

export interface CustomFieldsRow {
  fields: CustomFieldDefinition[];
  updated_at: Date;
  version: string;
}

export const customFieldsProjection = defineProjection<CustomFieldsEvent>()({
  name: 'user-custom-fields',
  version: 1,
  tables: ['rm_user_custom_fields'],
  schema: [
    `CREATE TABLE IF NOT EXISTS rm_user_custom_fields (
       id         text PRIMARY KEY,
       fields     jsonb NOT NULL,
       updated_at timestamptz NOT NULL,
       version    bigint NOT NULL
     )`,
  ],
  handles: CUSTOM_FIELDS_EVENT_TYPES,
  async apply(e, tx) {
    await tx.query(
      `INSERT INTO rm_user_custom_fields (id, fields, updated_at, version)
       VALUES ('fields', $1::jsonb, $2, $3::bigint)
       ON CONFLICT (id) DO UPDATE SET fields = EXCLUDED.fields, updated_at = EXCLUDED.updated_at,
                                      version = EXCLUDED.version
       WHERE rm_user_custom_fields.version < EXCLUDED.version`,
      [JSON.stringify(e.data.fields), e.metadata.occurredAt, e.revision.toString()],
    );
  },
});
