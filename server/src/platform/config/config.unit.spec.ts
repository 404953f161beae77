import { describe, expect, it } from '@jest/globals';
import { ConfigError, DEFAULT_FIRST_SUPERUSER, loadConfig } from './config.js';

describe('configuration', () => {
  it('defaults to the embedded store on port 3000 with the demo administrator', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ mode: 'embedded', port: 3000, databaseUrl: null });
    expect(c.firstSuperuser).toMatchObject({ email: DEFAULT_FIRST_SUPERUSER, isDefaultPassword: true });
    expect(c.dataDir.endsWith('/data')).toBe(true);
  });

  it('runs the embedded PGlite in the main thread unless PGLITE_WORKER=true (decision 0072)', () => {
    expect(loadConfig({}).pgliteWorker).toBe(false);
    expect(loadConfig({ PGLITE_WORKER: 'true' }).pgliteWorker).toBe(true);
    expect(loadConfig({ PGLITE_WORKER: 'false' }).pgliteWorker).toBe(false);
    expect(() => loadConfig({ PGLITE_WORKER: 'no' })).toThrow(/PGLITE_WORKER/);
  });

  it('picks server mode with DATABASE_URL and production mode with EVENTSTORE_CONNECTION_STRING', () => {
    const pw = { FIRST_SUPERUSER_PASSWORD: 'long enough secret' };
    expect(loadConfig({ ...pw, DATABASE_URL: 'postgres://u@h/db' }).mode).toBe('server');
    expect(
      loadConfig({
        ...pw,
        DATABASE_URL: 'postgres://u@h/db',
        EVENTSTORE_CONNECTION_STRING: 'esdb://h:2113?tls=false',
      }).mode,
    ).toBe('production');
  });

  it('gives sessions 2 hours idle and 12 hours absolute by default, both configurable (decision 0039)', () => {
    expect(loadConfig({}).session).toEqual({ idleMinutes: 120, maxHours: 12 });
    expect(loadConfig({ SESSION_IDLE_MINUTES: '30', SESSION_MAX_HOURS: '8' }).session).toEqual({
      idleMinutes: 30,
      maxHours: 8,
    });
    expect(() => loadConfig({ SESSION_IDLE_MINUTES: '0' })).toThrow(/SESSION_IDLE_MINUTES/);
    expect(() => loadConfig({ SESSION_MAX_HOURS: '1.5' })).toThrow(/SESSION_MAX_HOURS/);
    expect(() => loadConfig({ SESSION_MAX_HOURS: String(24 * 31) })).toThrow(/SESSION_MAX_HOURS/);
  });

  it('keeps the API document and health details private in production mode unless PUBLIC_DIAGNOSTICS says otherwise', () => {
    const server = { FIRST_SUPERUSER_PASSWORD: 'long enough secret', DATABASE_URL: 'postgres://u@h/db' };
    const production = { ...server, EVENTSTORE_CONNECTION_STRING: 'esdb://h:2113?tls=false' };
    expect(loadConfig({}).publicDiagnostics).toBe(true);
    expect(loadConfig(server).publicDiagnostics).toBe(true);
    expect(loadConfig(production).publicDiagnostics).toBe(false);
    expect(loadConfig({ ...production, PUBLIC_DIAGNOSTICS: 'true' }).publicDiagnostics).toBe(true);
    expect(loadConfig({ ...server, PUBLIC_DIAGNOSTICS: 'false' }).publicDiagnostics).toBe(false);
    expect(() => loadConfig({ PUBLIC_DIAGNOSTICS: 'yes' })).toThrow(/PUBLIC_DIAGNOSTICS/);
  });

  it('names the variable to fix when a value is wrong or missing', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ DATABASE_URL: 'postgres://u@h/db' })).toThrow(/FIRST_SUPERUSER_PASSWORD/);
    expect(() => loadConfig({ EVENTSTORE_CONNECTION_STRING: 'esdb://h:2113' })).toThrow(ConfigError);
    expect(() => loadConfig({ EVENTSTORE_CONNECTION_STRING: 'esdb://h:2113' })).toThrow(/DATABASE_URL/);
  });
});
