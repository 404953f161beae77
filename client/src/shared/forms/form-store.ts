import { fieldErrorsOf } from '../api/field-errors';
import { fieldMessage } from './field-message';

/** Messages by field name: the API's 422 `errors[].field` (`first_name`, `custom_fields.<id>`…). */
export type FieldErrors = Record<string, string>;

export interface FormConfig<Draft, Result> {
  /** The write (usually a command's `mutateAsync`). Its failure is kept for the form to show. */
  submit: (draft: Draft) => Promise<Result>;
  /** What the browser can know for sure before asking the server; any message stops the submit. */
  validate?: (draft: Draft) => Partial<FieldErrors>;
  /** A failure's field errors; default: a 422's `errors[]` (or "field: message" detail). */
  errorsOf?: (error: unknown) => FieldErrors | undefined;
  onSuccess?: (result: Result, draft: Draft) => void;
}

export interface FormSnapshot<Draft> {
  draft: Draft;
  /** The draft the form started from (or was last reset to); `dirty` compares against it. */
  initial: Draft;
  errors: FieldErrors;
  pending: boolean;
  /** The last failure that named no field (for an alert above the form); null when none. */
  failure: unknown;
  dirty: boolean;
}

const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

/** The keys whose value differs from the initial draft. */
export function changedKeys<Draft extends object>(initial: Draft, draft: Draft): (keyof Draft)[] {
  return (Object.keys(draft) as (keyof Draft)[]).filter((key) => !same(initial[key], draft[key]));
}

/**
 * A form's state outside React (draft, field errors, pending, failure), so its rules are unit-tested
 * without a DOM; `useServerForm` subscribes a component to it.
 */
export function createFormStore<Draft extends object, Result = unknown>(
  start: Draft,
  config: FormConfig<Draft, Result>,
) {
  let current = config;
  let state: FormSnapshot<Draft> = {
    draft: start,
    initial: start,
    errors: {},
    pending: false,
    failure: null,
    dirty: false,
  };
  const listeners = new Set<() => void>();
  const update = (next: Partial<FormSnapshot<Draft>>) => {
    const merged = { ...state, ...next };
    merged.dirty = changedKeys(merged.initial, merged.draft).length > 0;
    state = merged;
    listeners.forEach((listener) => listener());
  };
  const without = (errors: FieldErrors, key: string) => {
    if (!(key in errors)) return errors;
    const rest = { ...errors };
    delete rest[key];
    return rest;
  };

  return {
    getSnapshot: () => state,
    subscribe: (listener: () => void) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    /** The component's latest callbacks (they close over its props). */
    configure: (next: FormConfig<Draft, Result>) => {
      current = next;
    },
    /** Sets one field and clears its error (the user is answering it). */
    set: <K extends keyof Draft>(key: K, value: Draft[K]) =>
      update({ draft: { ...state.draft, [key]: value }, errors: without(state.errors, String(key)) }),
    setDraft: (change: (draft: Draft) => Draft) => update({ draft: change(state.draft) }),
    setErrors: (errors: FieldErrors) => update({ errors }),
    clearError: (field: string) => update({ errors: without(state.errors, field) }),
    /** Starts again from `next` (default: the initial draft), without errors. */
    reset: (next: Draft = state.initial) =>
      update({ draft: next, initial: next, errors: {}, failure: null, pending: false }),
    /** The field's message, ready to show (spec §5: words, capitalised). */
    err: (field: string) => fieldMessage(state.errors[field]),
    /** Validates, then writes. Resolves to the result, or undefined when refused or failed. */
    submit: async (): Promise<Result | undefined> => {
      if (state.pending) return undefined;
      const { draft } = state;
      const local = Object.fromEntries(
        Object.entries(current.validate?.(draft) ?? {}).filter(
          (entry): entry is [string, string] => !!entry[1],
        ),
      );
      if (Object.keys(local).length > 0) {
        update({ errors: local, failure: null });
        return undefined;
      }
      update({ pending: true, errors: {}, failure: null });
      try {
        const result = await current.submit(draft);
        update({ pending: false });
        current.onSuccess?.(result, draft);
        return result;
      } catch (error) {
        const fields = (current.errorsOf ?? fieldErrorsOf)(error);
        const named = fields !== undefined && Object.keys(fields).length > 0;
        update({ pending: false, errors: named ? fields : {}, failure: named ? null : error });
        return undefined;
      }
    },
  };
}

export type FormStore<Draft extends object, Result = unknown> = ReturnType<
  typeof createFormStore<Draft, Result>
>;
