import { describe, expect, it } from '@jest/globals';
import { describeEvent } from './audit-text';

describe('audit text', () => {
  it('says how many students a link change linked and unlinked', () => {
    expect(describeEvent('UserStudentLinksChanged', { linked: ['a', 'b'], unlinked: ['c'] }, 'UTC')).toBe(
      'Linked students changed: 2 linked, 1 unlinked',
    );
    expect(describeEvent('UserStudentLinksChanged', { linked: [], unlinked: ['c'] }, 'UTC')).toBe(
      'Linked students changed: 1 unlinked',
    );
  });
});
