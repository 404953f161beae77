import { defineProjection, guardedSet } from '../projection.js';

/**
 * Reference data of the teaching area (issue 15 item 2, decision 0049): subjects (`subject-{id}`),
 * year groups with their key stage (`yearGroup-{id}`) and products (`product-{id}`: what a programme
 * sells, with a delivery mode, a default lesson length and a maximum group size). Programmes point at
 * them by id; every screen that shows a programme reads their names here.
 */

/** Key stages of the English national curriculum (EYFS = Reception and nursery; KS5 = sixth form). */
export const KEY_STAGES = ['EYFS', 'KS1', 'KS2', 'KS3', 'KS4', 'KS5'] as const;
export type KeyStage = (typeof KEY_STAGES)[number];

/** How a product is delivered: one student online, a small group online, or in person. */
export const DELIVERY_MODES = ['online-1to1', 'online-group', 'in-person'] as const;
export type DeliveryMode = (typeof DELIVERY_MODES)[number];

/** Bounds of a product's default lesson length (minutes) and group size. */
export const PRODUCT_LIMITS = {
  minDurationMinutes: 15,
  maxDurationMinutes: 720,
  minGroupSize: 1,
  maxGroupSize: 60,
} as const;

export interface SubjectCreatedData {
  subjectId: string;
  name: string;
}
export interface SubjectRenamedData {
  subjectId: string;
  name: string;
}
export interface YearGroupCreatedData {
  yearGroupId: string;
  name: string;
  keyStage: KeyStage;
}
export interface YearGroupRenamedData {
  yearGroupId: string;
  name: string;
}
export interface YearGroupKeyStageChangedData {
  yearGroupId: string;
  keyStage: KeyStage;
}
export interface ProductDetails {
  name: string;
  deliveryMode: DeliveryMode;
  defaultDurationMinutes: number;
  maxGroupSize: number;
}
export interface ProductCreatedData extends ProductDetails {
  productId: string;
}
/** Only the details that changed. */
export interface ProductDetailsChangedData extends Partial<ProductDetails> {
  productId: string;
}

export type SubjectEvent =
  { type: 'SubjectCreated'; data: SubjectCreatedData } | { type: 'SubjectRenamed'; data: SubjectRenamedData };
export type YearGroupEvent =
  | { type: 'YearGroupCreated'; data: YearGroupCreatedData }
  | { type: 'YearGroupRenamed'; data: YearGroupRenamedData }
  | { type: 'YearGroupKeyStageChanged'; data: YearGroupKeyStageChangedData };
export type ProductEvent =
  | { type: 'ProductCreated'; data: ProductCreatedData }
  | { type: 'ProductDetailsChanged'; data: ProductDetailsChangedData };
export type ReferenceEvent = SubjectEvent | YearGroupEvent | ProductEvent;

export const SUBJECT_EVENT_TYPES: readonly SubjectEvent['type'][] = ['SubjectCreated', 'SubjectRenamed'];
export const YEAR_GROUP_EVENT_TYPES: readonly YearGroupEvent['type'][] = [
  'YearGroupCreated',
  'YearGroupRenamed',
  'YearGroupKeyStageChanged',
];
export const PRODUCT_EVENT_TYPES: readonly ProductEvent['type'][] = [
  'ProductCreated',
  'ProductDetailsChanged',
];
export const REFERENCE_EVENT_TYPES: readonly ReferenceEvent['type'][] = [
  ...SUBJECT_EVENT_TYPES,
  ...YEAR_GROUP_EVENT_TYPES,
  ...PRODUCT_EVENT_TYPES,
];

export const subjectStream = (subjectId: string) => `subject-${subjectId}`;
export const yearGroupStream = (yearGroupId: string) => `yearGroup-${yearGroupId}`;
export const productStream = (productId: string) => `product-${productId}`;

interface Stamped {
  created_at: Date;
  updated_at: Date;
  version: string;
}
export interface SubjectRow extends Stamped {
  id: string;
  name: string;
}
export interface YearGroupRow extends Stamped {
  id: string;
  name: string;
  key_stage: KeyStage;
}
export interface ProductRow extends Stamped {
  id: string;
  name: string;
  delivery_mode: DeliveryMode;
  default_duration_minutes: number;
  max_group_size: number;
}

const STAMPS = `created_at timestamptz NOT NULL,
       updated_at timestamptz NOT NULL,
       version    bigint NOT NULL`;

export const referenceProjection = defineProjection<ReferenceEvent>()({
  name: 'reference',
  version: 1,
  tables: ['rm_subjects', 'rm_year_groups', 'rm_products'],
  schema: [
    `CREATE TABLE IF NOT EXISTS rm_subjects (
       id         uuid PRIMARY KEY,
       name       text NOT NULL,
       ${STAMPS}
     )`,
    `CREATE INDEX IF NOT EXISTS rm_subjects_name ON rm_subjects (lower(name), id)`,
    `CREATE TABLE IF NOT EXISTS rm_year_groups (
       id         uuid PRIMARY KEY,
       name       text NOT NULL,
       key_stage  text NOT NULL,
       ${STAMPS}
     )`,
    `CREATE INDEX IF NOT EXISTS rm_year_groups_name ON rm_year_groups (lower(name), id)`,
    `CREATE TABLE IF NOT EXISTS rm_products (
       id                       uuid PRIMARY KEY,
       name                     text NOT NULL,
       delivery_mode            text NOT NULL,
       default_duration_minutes int NOT NULL,
       max_group_size           int NOT NULL,
       ${STAMPS}
     )`,
    `CREATE INDEX IF NOT EXISTS rm_products_name ON rm_products (lower(name), id)`,
  ],
  handles: REFERENCE_EVENT_TYPES,
  async apply(e, tx) {
    const revision = e.revision.toString();
    const at = e.metadata.occurredAt;
    switch (e.type) {
      case 'SubjectCreated':
        await tx.query(
          `INSERT INTO rm_subjects (id, name, created_at, updated_at, version)
           VALUES ($1, $2, $3, $3, $4::bigint) ON CONFLICT (id) DO NOTHING`,
          [e.data.subjectId, e.data.name, at, revision],
        );
        return;
      case 'SubjectRenamed':
        await guardedSet(tx, 'rm_subjects', e.data.subjectId, revision, {
          name: e.data.name,
          updated_at: at,
        });
        return;
      case 'YearGroupCreated':
        await tx.query(
          `INSERT INTO rm_year_groups (id, name, key_stage, created_at, updated_at, version)
           VALUES ($1, $2, $3, $4, $4, $5::bigint) ON CONFLICT (id) DO NOTHING`,
          [e.data.yearGroupId, e.data.name, e.data.keyStage, at, revision],
        );
        return;
      case 'YearGroupRenamed':
        await guardedSet(tx, 'rm_year_groups', e.data.yearGroupId, revision, {
          name: e.data.name,
          updated_at: at,
        });
        return;
      case 'YearGroupKeyStageChanged':
        await guardedSet(tx, 'rm_year_groups', e.data.yearGroupId, revision, {
          key_stage: e.data.keyStage,
          updated_at: at,
        });
        return;
      case 'ProductCreated':
        await tx.query(
          `INSERT INTO rm_products
             (id, name, delivery_mode, default_duration_minutes, max_group_size, created_at, updated_at, version)
           VALUES ($1, $2, $3, $4, $5, $6, $6, $7::bigint) ON CONFLICT (id) DO NOTHING`,
          [
            e.data.productId,
            e.data.name,
            e.data.deliveryMode,
            e.data.defaultDurationMinutes,
            e.data.maxGroupSize,
            at,
            revision,
          ],
        );
        return;
      case 'ProductDetailsChanged': {
        const set: Record<string, unknown> = { updated_at: at };
        if (e.data.name !== undefined) set.name = e.data.name;
        if (e.data.deliveryMode !== undefined) set.delivery_mode = e.data.deliveryMode;
        if (e.data.defaultDurationMinutes !== undefined)
          set.default_duration_minutes = e.data.defaultDurationMinutes;
        if (e.data.maxGroupSize !== undefined) set.max_group_size = e.data.maxGroupSize;
        await guardedSet(tx, 'rm_products', e.data.productId, revision, set);
        return;
      }
    }
  },
});
