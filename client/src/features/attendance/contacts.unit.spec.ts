import { describe, expect, it } from '@jest/globals';
import { contactErrorRow } from './contacts';

describe('contactErrorRow: which contact a refusal names', () => {
  it('reads the row from the decider’s and the validator’s spellings of the field', () => {
    expect(contactErrorRow('contacts[2].user_id: Pat Office does not see attendance')).toBe(2);
    expect(contactErrorRow('contacts.0.notification_frequency must be one of each-change, daily')).toBe(0);
  });
  it('names no row when the refusal is not about one contact', () => {
    expect(contactErrorRow('contacts: a user is listed twice')).toBeNull();
    expect(contactErrorRow(undefined)).toBeNull();
  });
});
