import { applyTemplate } from './apply-template';
import { describe, expect, it } from '@jest/globals';

const EDITABLE = new Set([
  'PARTNER_CAN_SEE_PARENTS',
  'PARTNER_CAN_SEE_ATTENDANCE',
  'PARTNER_CAN_JOIN_LESSONS',
]);

describe('applyTemplate', () => {
  it.each([
    {
      when: 'the template replaces the assignable permissions',
      chosen: ['USER_IS_PARTNER', 'PARTNER_CAN_JOIN_LESSONS'],
      template: ['PARTNER_CAN_SEE_PARENTS', 'PARTNER_CAN_SEE_ATTENDANCE'],
      then: ['USER_IS_PARTNER', 'PARTNER_CAN_SEE_PARENTS', 'PARTNER_CAN_SEE_ATTENDANCE'],
    },
    {
      when: 'separately granted permissions are kept',
      chosen: ['USER_IS_PARTNER', 'PARTNER_CAN_SET_ABSENCE_REASON', 'PARTNER_CAN_SEE_PARENTS'],
      template: [],
      then: ['USER_IS_PARTNER', 'PARTNER_CAN_SET_ABSENCE_REASON'],
    },
    {
      when: 'template permissions the user cannot hold are ignored',
      chosen: ['USER_IS_PARTNER'],
      template: ['PARTNER_CAN_JOIN_LESSONS', 'PARTNER_CAN_REQUEST_BOOKINGS', 'USER_IS_ADMIN'],
      then: ['USER_IS_PARTNER', 'PARTNER_CAN_JOIN_LESSONS'],
    },
  ])('$when', ({ chosen, template, then }) => {
    expect([...applyTemplate(chosen, EDITABLE, template)].sort()).toEqual([...then].sort());
  });
});
