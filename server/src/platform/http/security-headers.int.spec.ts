import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { portalModes, startTestPortal, type TestPortal } from '../testing/portal-harness.js';

/** Splits a Content-Security-Policy header into directive → values. */
function directives(csp: string | null): Record<string, string[]> {
  expect(csp).toBeTruthy();
  return Object.fromEntries(
    csp!
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

/** What every answer carries, whatever it is (decision 0039). */
function expectCommonHeaders(res: Response): void {
  const csp = directives(res.headers.get('content-security-policy'));
  expect(csp['frame-ancestors']).toEqual(["'none'"]);
  expect(csp['default-src']).toEqual(["'self'"]);
  expect(csp['script-src']).toEqual(["'self'"]); // no inline or eval'd script
  expect(csp['object-src']).toEqual(["'none'"]);
  expect(csp['connect-src']).toEqual(["'self'"]);
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  expect(res.headers.get('x-frame-options')).toBe('DENY');
  expect(res.headers.get('x-powered-by')).toBeNull();
}

describe('security headers on every answer (decision 0039)', () => {
  let portal: TestPortal;
  let dist: string;

  beforeAll(async () => {
    // A stand-in for client/dist, so the test does not need a client build.
    dist = await mkdtemp(join(tmpdir(), 'portal-headers-dist-'));
    await mkdir(join(dist, 'assets'));
    await writeFile(
      join(dist, 'index.html'),
      '<!doctype html><html><head><script type="module" src="/assets/index-abc.js"></script></head><body><div id="root"></div></body></html>',
    );
    await writeFile(join(dist, 'assets', 'index-abc.js'), 'console.log("portal");\n');
    portal = await startTestPortal(portalModes[0]!, 'portal_headers', { CLIENT_DIST: dist });
  }, 120_000);

  afterAll(async () => {
    await portal?.close();
    await rm(dist, { recursive: true, force: true });
  });

  it('an authenticated API answer: the headers and Cache-Control: no-store', async () => {
    const res = await fetch(`${portal.base}/api/v1/users/me`, {
      headers: { RequestVerificationToken: portal.admin },
    });
    expect(res.status).toBe(200);
    expectCommonHeaders(res);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('strict-transport-security')).toBeNull();
  });

  it('anonymous API answers too: a refusal, the token answer and a public read', async () => {
    const refused = await fetch(`${portal.base}/api/v1/users/me`);
    expect(refused.status).toBe(401);
    const token = await fetch(`${portal.base}/api/v1/login/access-token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: 'nobody@example.com', password: 'wrong' }),
    });
    expect(token.status).toBe(401);
    const health = await fetch(`${portal.base}/api/v1/health`);
    expect(health.status).toBe(200);
    const unknown = await fetch(`${portal.base}/api/v1/no-such-route`);
    expect(unknown.status).toBe(404);
    for (const res of [refused, token, health, unknown]) {
      expectCommonHeaders(res);
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('the SPA index (any client route, token links included) keeps its no-cache and gets the headers', async () => {
    for (const path of ['/login', '/activate?token=abc', '/safeguarding-incident/feedback/abc']) {
      const res = await fetch(`${portal.base}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expectCommonHeaders(res);
      expect(res.headers.get('cache-control')).toBe('no-cache');
    }
  });

  it('a static asset keeps its caching and gets the headers', async () => {
    const res = await fetch(`${portal.base}/assets/index-abc.js`);
    expect(res.status).toBe(200);
    expectCommonHeaders(res);
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
  });

  it('Swagger UI and its files are served under the same policy, without no-store', async () => {
    const ui = await fetch(`${portal.base}/api/docs`);
    expect(ui.status).toBe(200);
    expectCommonHeaders(ui);
    expect(ui.headers.get('cache-control')).not.toBe('no-store');
    const css = await fetch(`${portal.base}/api/docs/swagger-ui.css`);
    expect(css.status).toBe(200);
    expect(css.headers.get('cache-control')).not.toBe('no-store');
  });

  it('sends HSTS only over TLS: absent over plain HTTP, present behind the loopback proxy saying https', async () => {
    const plain = await fetch(`${portal.base}/api/v1/health`);
    expect(plain.headers.get('strict-transport-security')).toBeNull();
    const proxiedHttp = await fetch(`${portal.base}/login`, { headers: { 'X-Forwarded-Proto': 'http' } });
    expect(proxiedHttp.headers.get('strict-transport-security')).toBeNull();
    for (const path of ['/api/v1/health', '/login', '/assets/index-abc.js']) {
      const tls = await fetch(`${portal.base}${path}`, { headers: { 'X-Forwarded-Proto': 'https' } });
      expect(tls.status).toBe(200);
      expect(tls.headers.get('strict-transport-security')).toBe('max-age=31536000');
    }
  });
});
