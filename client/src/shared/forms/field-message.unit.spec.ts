import { describe, expect, it } from '@jest/globals';
import { capitalise, fieldMessage } from './field-message';

describe('field messages (spec §5)', () => {
  it('capitalises the first letter', () => {
    expect(capitalise('email must be an email')).toBe('Email must be an email');
    expect(fieldMessage('email must be an email')).toBe('Email must be an email');
  });

  it('reads a leading snake_case field name as words', () => {
    expect(fieldMessage('first_name should not be empty')).toBe('First name should not be empty');
    expect(fieldMessage(undefined)).toBeUndefined();
  });
});
