/**
 * Settings shared by the Playwright config and the specs. The config runs in the runner process and in
 * every worker, so anything that must be stable across them is passed through process.env.
 */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);
export const E2E_BASE_URL = `http://127.0.0.1:${E2E_PORT}`;

export const SUPERUSER = {
  email: process.env.FIRST_SUPERUSER ?? 'admin@example.com',
  password: process.env.FIRST_SUPERUSER_PASSWORD ?? 'ChangeMe-2026!',
};
