import { ApiError } from '../../shared/api/client';
import { fieldErrorsOf } from '../../shared/api/field-errors';
import { createResource } from '../../shared/api/resource';
import type { ApiSchema } from '../../shared/api/types';

/** Shapes of server/src/reference/*.controller.ts and server/src/term-calendars (decision 0049). */
export type Subject = ApiSchema<'SubjectView'>;
export type YearGroup = ApiSchema<'YearGroupView'>;
export type Product = ApiSchema<'ProductView'>;
export type TermCalendar = ApiSchema<'TermCalendarView'>;

export type KeyStage = YearGroup['key_stage'];
export type DeliveryMode = Product['delivery_mode'];

export const KEY_STAGE_LABELS: Record<KeyStage, string> = {
  EYFS: 'EYFS (early years)',
  KS1: 'Key stage 1',
  KS2: 'Key stage 2',
  KS3: 'Key stage 3',
  KS4: 'Key stage 4',
  KS5: 'Key stage 5 (sixth form)',
};

export const DELIVERY_MODE_LABELS: Record<DeliveryMode, string> = {
  'online-1to1': 'Online, one to one',
  'online-group': 'Online, group',
  'in-person': 'In person',
};

export interface ProductInput {
  name: string;
  delivery_mode: DeliveryMode;
  default_duration_minutes: number;
  max_group_size: number;
}

export interface TermCalendarInput {
  network_id: string;
  customer_id: string | null;
  name?: string;
  terms: { name: string; first_day: string; last_day: string }[];
  closures: { date: string; reason: string }[];
}

/** Each under the query root its stream kind refreshes (`subject-{id}` → `subjects`, ...). */
export const subjects = createResource<Subject, { name: string }>({
  root: 'subjects',
  path: '/api/v1/subjects/',
});
export const yearGroups = createResource<YearGroup, { name: string; key_stage: KeyStage }>({
  root: 'year-groups',
  path: '/api/v1/year-groups/',
});
export const products = createResource<Product, ProductInput>({
  root: 'products',
  path: '/api/v1/products/',
});
export const termCalendars = createResource<TermCalendar, TermCalendarInput>({
  root: 'term-calendars',
  path: '/api/v1/term-calendars/',
});

/**
 * A refused write's field errors: the 422 `errors[]`, a rule's `field: reason` detail (also nested
 * fields such as `terms.1.last_day`), or a 409's detail shown on the name.
 */
export function referenceErrorsOf(error: unknown): Record<string, string> | undefined {
  if (!(error instanceof ApiError)) return undefined;
  if (error.status === 409) return { name: error.detailText ?? 'This name is already used' };
  if (error.status === 422 && typeof error.detail === 'string') {
    const match = /^([a-z_][a-z_.0-9]*): (.+)$/.exec(error.detail);
    if (match) return { [match[1]!]: match[2]! };
  }
  return fieldErrorsOf(error);
}
