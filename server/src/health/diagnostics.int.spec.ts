/** The OpenAPI document and the health details outside public-diagnostics mode (docs/decisions/0038). */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { portalModes, startTestPortal, type TestPortal } from '../platform/testing/portal-harness.js';

describe('diagnostics when not public (PUBLIC_DIAGNOSTICS=false, the production default)', () => {
  let portal: TestPortal;
  beforeAll(async () => {
    portal = await startTestPortal(portalModes[0]!, 'portal_private_docs', { PUBLIC_DIAGNOSTICS: 'false' });
  });
  afterAll(async () => {
    await portal?.close();
  });

  it('serves no API document, and health details only to an administrator', async () => {
    expect((await fetch(`${portal.base}/api/docs-json`)).status).toBe(404);
    expect((await fetch(`${portal.base}/api/docs`)).status).toBe(404);
    const anonymous = await fetch(`${portal.base}/api/v1/health`);
    expect(anonymous.status).toBe(200);
    expect(await anonymous.json()).toEqual({ status: 'ok' });
    const admin = await portal.call('GET', '/health', portal.admin);
    expect(admin.body).toMatchObject({ status: 'ok', mode: 'embedded', event_store: 'pglite' });
    const teacher = await portal.createUser({
      email: 'health.teacher@example.com',
      first_name: 'H',
      last_name: 'T',
      user_type: 'teacher',
    });
    expect(teacher).toEqual(expect.any(String));
    const notAdmin = await portal.call('GET', '/health', await portal.tokenFor('health.teacher@example.com'));
    expect(notAdmin.body).toEqual({ status: 'ok' });
  });
});
