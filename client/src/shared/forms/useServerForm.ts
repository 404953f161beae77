import { useRef, useState, useSyncExternalStore, type FormEvent } from 'react';
import { fieldErrorsOf } from '../api/field-errors';
import { createFormStore, type FormConfig } from './form-store';

export type { FieldErrors } from './form-store';

/**
 * A form whose server has the last word (ADR 0043): the draft, `set(field, value)` (clears that
 * field's error), `err(field)` (a 422's `errors[]` message for the field, in words), `dirty`, `pending`,
 * `failure` (an answer that named no field, for an alert) and `onSubmit` for the `<form>`.
 *
 * `submit` is usually a command's `mutateAsync`, so the resource's invalidation and notifications
 * still apply; give the command `silentErrors: true` when the form shows its errors.
 */
export function useServerForm<Draft extends object, Result = unknown>(
  initial: Draft | (() => Draft),
  submit: FormConfig<Draft, Result>['submit'],
  options: Omit<FormConfig<Draft, Result>, 'submit'> = {},
) {
  // The latest callbacks, which close over the component's current props and state.
  const config = useRef<FormConfig<Draft, Result>>({ submit, ...options });
  config.current = { submit, ...options };
  const [store] = useState(() =>
    createFormStore<Draft, Result>(typeof initial === 'function' ? initial() : initial, {
      submit: (draft) => config.current.submit(draft),
      validate: (draft) => config.current.validate?.(draft) ?? {},
      errorsOf: (error) => (config.current.errorsOf ?? fieldErrorsOf)(error),
      onSuccess: (result, draft) => config.current.onSuccess?.(result, draft),
    }),
  );
  const snapshot = useSyncExternalStore(store.subscribe, store.getSnapshot);
  return {
    ...snapshot,
    set: store.set,
    setDraft: store.setDraft,
    setErrors: store.setErrors,
    clearError: store.clearError,
    reset: store.reset,
    err: store.err,
    submit: store.submit,
    onSubmit: (event?: FormEvent) => {
      event?.preventDefault();
      void store.submit();
    },
  };
}
