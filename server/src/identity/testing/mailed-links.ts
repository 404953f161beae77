import { expect } from '@jest/globals';
import type { TestPortal } from '../../platform/testing/portal-harness.js';
import { waitFor } from '../../platform/testing/wait-for.js';

export const TEST_PUBLIC_URL = 'https://portal.example.org';

interface Mail {
  to_address: string;
  subject: string;
  body_text: string;
  created_at: string;
}

/** Every mail the outbox holds for `to`, newest first (read as an administrator, as a person would). */
export async function mailsTo(portal: TestPortal, to: string): Promise<Mail[]> {
  const res = await portal.call('GET', '/mail-outbox', portal.admin);
  expect(res.status).toBe(200);
  return (res.body.items as Mail[]).filter((m) => m.to_address === to);
}

/** Waits for the newest mail to `to` holding a link to `route`, and returns the link's token. */
export async function mailedToken(portal: TestPortal, to: string, route: string, after = 0): Promise<string> {
  const pattern = new RegExp(`${TEST_PUBLIC_URL}${route}\\?token=([A-Za-z0-9_-]{43})`);
  return waitFor(`a mail to ${to} with a ${route} link`, async () => {
    const mails = await mailsTo(portal, to);
    if (mails.length <= after) return null;
    const match = pattern.exec(mails[0]!.body_text);
    return match ? match[1]! : null;
  });
}
