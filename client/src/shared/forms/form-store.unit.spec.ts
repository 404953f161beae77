import { describe, expect, it } from '@jest/globals';
import { ApiError } from '../api/client';
import { changedKeys, createFormStore } from './form-store';

const unprocessable = (errors: { field: string; message: string }[]) =>
  new ApiError(422, 'Validation failed', { detail: 'Validation failed', errors }, 'Validation failed');

interface Draft {
  first_name: string;
  email: string;
  tags: string[];
}
const start: Draft = { first_name: 'Ada', email: 'ada@example.org', tags: ['a'] };

describe('form store', () => {
  it('is dirty only while the draft differs from where it started', () => {
    const form = createFormStore(start, { submit: () => Promise.resolve() });
    expect(form.getSnapshot().dirty).toBe(false);
    form.set('first_name', 'Grace');
    expect(form.getSnapshot().dirty).toBe(true);
    form.set('first_name', 'Ada');
    expect(form.getSnapshot().dirty).toBe(false);
    form.set('tags', ['a']);
    expect(form.getSnapshot().dirty).toBe(false);
    form.set('tags', ['a', 'b']);
    expect(changedKeys(start, form.getSnapshot().draft)).toEqual(['tags']);
    form.reset();
    expect(form.getSnapshot()).toMatchObject({ draft: start, dirty: false });
  });

  it('puts a 422 errors[] on its fields, in words, and clears a field when it is edited', async () => {
    const form = createFormStore(start, {
      submit: () =>
        Promise.reject(unprocessable([{ field: 'first_name', message: 'first_name should not be empty' }])),
    });
    await expect(form.submit()).resolves.toBeUndefined();
    expect(form.err('first_name')).toBe('First name should not be empty');
    expect(form.err('email')).toBeUndefined();
    expect(form.getSnapshot().failure).toBeNull();
    form.set('first_name', 'A');
    expect(form.err('first_name')).toBeUndefined();
  });

  it('keeps an answer that names no field as the failure, for an alert', async () => {
    const conflict = new ApiError(409, 'Taken', { detail: 'Taken' }, 'Taken');
    const form = createFormStore(start, { submit: () => Promise.reject(conflict) });
    await form.submit();
    expect(form.getSnapshot()).toMatchObject({ failure: conflict, errors: {}, pending: false });
  });

  it('lets the form map other answers to fields (409 → email)', async () => {
    const conflict = new ApiError(409, 'Taken', { detail: 'Taken' }, 'Taken');
    const form = createFormStore(start, {
      submit: () => Promise.reject(conflict),
      errorsOf: (error) =>
        error instanceof ApiError && error.status === 409 ? { email: 'taken' } : undefined,
    });
    await form.submit();
    expect(form.err('email')).toBe('Taken');
  });

  it('is pending while the write runs, writes once, and reports success', async () => {
    let finish: (value: string) => void = () => undefined;
    const sent: Draft[] = [];
    const done: string[] = [];
    const form = createFormStore(start, {
      submit: (draft) => {
        sent.push(draft);
        return new Promise<string>((resolve) => (finish = resolve));
      },
      onSuccess: (result) => done.push(result),
    });
    const first = form.submit();
    expect(form.getSnapshot().pending).toBe(true);
    await expect(form.submit()).resolves.toBeUndefined();
    finish('ok');
    await expect(first).resolves.toBe('ok');
    expect(form.getSnapshot().pending).toBe(false);
    expect(sent).toHaveLength(1);
    expect(done).toEqual(['ok']);
  });

  it('does not write when the local checks fail', async () => {
    let calls = 0;
    const form = createFormStore(
      { ...start, email: ' ' },
      {
        submit: () => Promise.resolve(calls++),
        validate: (d) => (d.email.trim() ? {} : { email: 'email should not be empty' }),
      },
    );
    await form.submit();
    expect(calls).toBe(0);
    expect(form.err('email')).toBe('Email should not be empty');
  });

  it('tells subscribers about each change', () => {
    const form = createFormStore(start, { submit: () => Promise.resolve() });
    let seen = 0;
    const stop = form.subscribe(() => seen++);
    form.set('email', 'x');
    form.setErrors({ email: 'bad' });
    stop();
    form.set('email', 'y');
    expect(seen).toBe(2);
  });
});
