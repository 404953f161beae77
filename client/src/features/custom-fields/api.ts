import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../shared/api/client';

/** Shapes of server/src/identity/custom-fields/custom-fields.controller.ts. */

export type CustomFieldType = 'text' | 'number' | 'date' | 'select';

export interface CustomField {
  id: string;
  name: string;
  type: CustomFieldType;
  options: string[];
  required: boolean;
}

export interface CustomFieldsAnswer {
  items: CustomField[];
  updated_at: string | null;
}

/** What PUT takes: the complete list; an item without id is a new field. */
export interface CustomFieldItem {
  id?: string;
  name: string;
  type: CustomFieldType;
  options?: string[];
  required: boolean;
}

export const CUSTOM_FIELD_TYPE_LABELS: Record<CustomFieldType, string> = {
  text: 'Text',
  number: 'Number',
  date: 'Date',
  select: 'Choice from a list',
};

/** Under `users`: the definitions' stream is `user-custom-fields`, whose live messages refresh `users`. */
export const customFieldsKey = ['users', 'custom-fields'] as const;

export function useCustomFields(options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: customFieldsKey,
    enabled: options.enabled ?? true,
    queryFn: ({ signal }) => apiRequest<CustomFieldsAnswer>('/api/v1/users/custom_fields', { signal }),
    meta: { silentErrors: true },
  });
}

export const saveCustomFields = (items: CustomFieldItem[]) =>
  apiRequest<{ position: string }>('/api/v1/users/custom_fields', { method: 'PUT', json: { items } });
