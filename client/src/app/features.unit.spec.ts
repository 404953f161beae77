import { describe, expect, it } from '@jest/globals';
import { composeScreens, type Feature } from '../shared/routing/screens';
import * as features from './features';
import { PROTECTED_ROUTES, PUBLIC_ROUTES } from './routes';

const all: Feature[] = Object.values(features);

describe('features compose the screens (C5)', () => {
  it('build only routes of the table (app/routes.ts), each once', () => {
    const protectedPaths = new Set(PROTECTED_ROUTES.map((route) => route.path));
    const publicPaths = new Set(PUBLIC_ROUTES.map((route) => route.path));
    const screens = composeScreens(all.map((feature) => feature.screens));
    const publicScreens = composeScreens(all.map((feature) => feature.publicScreens));
    for (const path of Object.keys(screens)) expect(protectedPaths).toContain(path);
    for (const path of Object.keys(publicScreens)) expect(publicPaths).toContain(path);
    expect(Object.keys(screens).length).toBeGreaterThan(30);
    expect(Object.keys(publicScreens)).toEqual(
      expect.arrayContaining(['activate', 'passwordreset', 'register/partner/invite']),
    );
  });

  it('refuses a path built by two features', () => {
    const page = () => null;
    expect(() => composeScreens([{ networks: page }, { networks: page }])).toThrow(/networks/);
  });
});
