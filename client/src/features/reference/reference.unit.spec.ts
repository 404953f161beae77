import { describe, expect, it } from '@jest/globals';
import { ApiError } from '../../shared/api/client';
import { referenceErrorsOf } from './api';

const answer = (status: number, body: Record<string, unknown>) =>
  new ApiError(status, body.detail, body, `error ${status}`);

describe('reference forms put the server answer on the right field', () => {
  it('puts a rule refusal on the row and column it names (terms.1.last_day)', () => {
    expect(
      referenceErrorsOf(answer(422, { detail: 'terms.1.last_day: must not be before first_day' })),
    ).toEqual({ 'terms.1.last_day': 'must not be before first_day' });
    expect(
      referenceErrorsOf(answer(422, { detail: 'max_group_size: a 1:1 product takes exactly one student' })),
    ).toEqual({
      max_group_size: 'a 1:1 product takes exactly one student',
    });
  });

  it("uses a validation answer's errors[] and shows a duplicate name (409) on the name", () => {
    expect(
      referenceErrorsOf(
        answer(422, {
          detail: 'max_group_size must not be greater than 60',
          errors: [{ field: 'max_group_size', message: 'max_group_size must not be greater than 60' }],
        }),
      ),
    ).toEqual({ max_group_size: 'max_group_size must not be greater than 60' });
    expect(referenceErrorsOf(answer(409, { detail: 'A product named "Art" already exists' }))).toEqual({
      name: 'A product named "Art" already exists',
    });
  });

  it('leaves other failures to the form alert', () => {
    expect(referenceErrorsOf(answer(500, { detail: 'Internal error' }))).toBeUndefined();
    expect(referenceErrorsOf(new Error('offline'))).toBeUndefined();
  });
});
