import { ApiError } from '../../shared/api/client';
import type { CustomField, CustomFieldItem, CustomFieldType } from './api';

/** One row of the definitions form; `key` is stable for React, `id` is the server's (absent when new). */
export interface FieldDraft {
  key: string;
  id?: string;
  name: string;
  type: CustomFieldType;
  options: string[];
  required: boolean;
}

export const draftsOf = (fields: CustomField[]): FieldDraft[] =>
  fields.map((f) => ({
    key: f.id,
    id: f.id,
    name: f.name,
    type: f.type,
    options: f.options,
    required: f.required,
  }));

/** The PUT body: names trimmed, options only for select fields, ids kept so users keep their values. */
export function itemsOf(drafts: FieldDraft[]): CustomFieldItem[] {
  return drafts.map((d) => ({
    ...(d.id ? { id: d.id } : {}),
    name: d.name.trim(),
    type: d.type,
    options: d.type === 'select' ? d.options.map((o) => o.trim()) : [],
    required: d.required,
  }));
}

/** Whether the drafts differ from what the server has. */
export function changed(fields: CustomField[], drafts: FieldDraft[]): boolean {
  return JSON.stringify(itemsOf(draftsOf(fields))) !== JSON.stringify(itemsOf(drafts));
}

/**
 * A refused save's messages by input (`items.2.name`, `items.0.options`, or `items` for the list): from
 * the decider's `detail` ("items.2.name: ...") and the validation pipe's `errors[]` ({field, message}).
 */
export function definitionErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError) || error.status !== 422) return {};
  const out: Record<string, string> = {};
  const add = (field: string, message: string) => {
    const key = /^items\.\d+\.[a-z]+/.exec(field)?.[0] ?? (field.startsWith('items') ? 'items' : field);
    out[key] ??= message.replace(/^items\.\d+\.[a-z]+ /, '');
  };
  const body = error.body as { errors?: unknown } | undefined;
  if (body && Array.isArray(body.errors)) {
    for (const e of body.errors as { field?: unknown; message?: unknown }[])
      if (typeof e?.field === 'string' && typeof e.message === 'string') add(e.field, e.message);
    if (Object.keys(out).length) return out;
  }
  const detail = typeof error.detail === 'string' ? error.detail : '';
  const match = /^([a-z_]+(?:\.[a-z0-9_]+)*): (.+)$/s.exec(detail);
  if (match) add(match[1]!, match[2]!);
  else if (detail) out.items = detail;
  return out;
}

/** Custom field values: the server's form (string, number or null to clear) from an input's text. */
export function valueFromInput(type: CustomFieldType, text: string): string | number | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  if (type === 'number') {
    const n = Number(trimmed);
    return Number.isFinite(n) ? n : trimmed;
  }
  return type === 'text' ? text : trimmed;
}

/** Only the values that changed (by field id), so an edit sends what the user touched. */
export function changedValues(
  before: Record<string, string | number>,
  after: Record<string, string | number | null>,
): Record<string, string | number | null> {
  const out: Record<string, string | number | null> = {};
  for (const [id, value] of Object.entries(after)) {
    const old = before[id] ?? null;
    if (value !== old) out[id] = value;
  }
  return out;
}
