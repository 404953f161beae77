import { describe, expect, it } from '@jest/globals';
import { generatedPassword } from './user-imports.controller.js';

describe('generated passwords', () => {
  it('are 16 URL-safe characters and never start with "-" (which the CSV download would escape)', () => {
    for (let i = 0; i < 2_000; i++) {
      const password = generatedPassword();
      expect(password).toMatch(/^[A-Za-z0-9_][A-Za-z0-9_-]{15}$/);
    }
  });
});
