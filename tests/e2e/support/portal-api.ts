import { expect, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { E2E_BASE_URL, SUPERUSER } from './env.js';

/** Seeding through the real API (the e2e server starts empty, with the first superuser only). */

export async function tokenFor(request: APIRequestContext, email: string, password: string): Promise<string> {
  const res = await request.post(`${E2E_BASE_URL}/api/v1/login/access-token`, {
    form: { username: email, password },
  });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

export const adminToken = (request: APIRequestContext) =>
  tokenFor(request, SUPERUSER.email, SUPERUSER.password);

/**
 * Read-your-writes as the client does it (client/src/shared/api/client.ts): the highest `position` a
 * command answered goes as `X-Min-Position` on the next reads, so they see the read models with it.
 */
let lastWritePosition: bigint | null = null;

export async function api<T = unknown>(
  request: APIRequestContext,
  token: string,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  data?: unknown,
): Promise<{ status: number; body: T }> {
  const headers: Record<string, string> = { RequestVerificationToken: token };
  if (method === 'GET' && lastWritePosition !== null)
    headers['X-Min-Position'] = lastWritePosition.toString();
  const res = await request.fetch(`${E2E_BASE_URL}${path}`, { method, headers, data });
  const text = await res.text();
  const body = (text ? JSON.parse(text) : undefined) as T;
  const position = (body as { position?: unknown } | undefined)?.position;
  if (method !== 'GET' && typeof position === 'string' && /^\d{1,19}$/.test(position)) {
    const p = BigInt(position);
    if (lastWritePosition === null || p > lastWritePosition) lastWritePosition = p;
  }
  return { status: res.status(), body };
}

export async function createCustomer(
  request: APIRequestContext,
  token: string,
  name: string,
): Promise<string> {
  const res = await api<{ id: string }>(request, token, 'POST', '/api/v1/customers', { name });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

export interface SeedUser {
  email: string;
  first_name: string;
  last_name: string;
  user_type: 'student' | 'teacher' | 'partner' | 'super_admin';
  customer_id?: string;
  customer_type?: 'super-admin' | 'admin' | 'link-contact' | 'parent';
  password?: string;
  timezone?: string;
}

/** Creates a user (or finds the existing one with that e-mail) and returns its id. */
export async function createUser(request: APIRequestContext, token: string, user: SeedUser): Promise<string> {
  const res = await api<{ id: string }>(request, token, 'POST', '/api/v1/users/', user);
  if (res.status === 201) return res.body.id;
  expect(res.status, JSON.stringify(res.body)).toBe(409);
  const found = await api<{ items: { id: string; email: string }[] }>(
    request,
    token,
    'GET',
    `/api/v1/users/?query=${encodeURIComponent(user.email)}`,
  );
  const match = found.body.items.find((u) => u.email === user.email);
  expect(match).toBeTruthy();
  return match!.id;
}

/** Signs the page in through the login form and waits for the first portal screen. */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

/** Signs the page in through the login form as the superuser. */
export const signInAsAdmin = (page: Page) => signIn(page, SUPERUSER.email, SUPERUSER.password);

/** Deletes users made by a spec (DELETE /api/v1/users/{id}); one already gone is fine. */
export async function deleteUsers(request: APIRequestContext, token: string, ids: string[]): Promise<void> {
  for (const id of ids) {
    const res = await api(request, token, 'DELETE', `/api/v1/users/${id}`);
    expect([200, 204, 404], JSON.stringify(res.body)).toContain(res.status);
  }
}

/** A new browser context (its own session) signed in through the login form as `email`. */
export async function signedIn(browser: Browser, email: string, password: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  await page.goto('/login');
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  return page;
}

/**
 * The UTC wall-clock date and start of a lesson that has already begun: 20 minutes ago, but never
 * before today's midnight (UTC), so the lesson stays in today's day and this week's timetable even
 * when the test runs just after midnight on a Monday. Its register is open (it opens 60 minutes
 * before the start).
 */
export function startedLessonUtc(now = Date.now()): { local_date: string; local_start: string } {
  const midnight = new Date(now);
  midnight.setUTCHours(0, 0, 0, 0);
  const start = new Date(Math.max(now - 20 * 60_000, midnight.getTime())).toISOString();
  return { local_date: start.slice(0, 10), local_start: start.slice(11, 16) };
}
