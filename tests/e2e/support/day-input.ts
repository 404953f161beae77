import type { Locator } from '@playwright/test';

/** Types a day into the portal's day field as a person would (dd.mm.yyyy), then leaves the field. */
export async function typeDay(input: Locator, isoDate: string): Promise<void> {
  await input.fill(isoDate.split('-').reverse().join('.'));
  await input.blur();
}
