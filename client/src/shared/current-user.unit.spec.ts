import { describe, expect, it } from '@jest/globals';
import {
  activeNetwork,
  defaultRoute,
  displayName,
  networkPrimaryColour,
  paletteFromColour,
  parseCurrentUser,
  timezoneMismatch,
  type CurrentUser,
} from './current-user';

const base: CurrentUser = {
  id: 'u1',
  first_name: 'Ada',
  last_name: 'Lovelace',
  full_name: 'Ada Lovelace',
  permission_list: ['USER_IS_ADMIN'],
};

describe('default route (spec §2)', () => {
  it('is Dashboard without a default custom dashboard', () => {
    expect(defaultRoute(null)).toBe('/dashboard');
    expect(defaultRoute(base)).toBe('/dashboard');
  });

  it("is the default custom dashboard when it is among the user's dashboards", () => {
    expect(
      defaultRoute({ ...base, custom_dashboards: [{ id: 3 }, { id: 7 }], default_custom_dashboard_id: 7 }),
    ).toBe('/custom-dashboards/7/details');
    expect(
      defaultRoute({
        ...base,
        custom_dashboards: [{ id: 'a' }],
        user_profile: { default_custom_dashboard_id: 'a' },
      }),
    ).toBe('/custom-dashboards/a/details');
  });

  it('is Dashboard when the default is not among the dashboards', () => {
    expect(defaultRoute({ ...base, custom_dashboards: [{ id: 3 }], default_custom_dashboard_id: 7 })).toBe(
      '/dashboard',
    );
    expect(defaultRoute({ ...base, default_custom_dashboard_id: 7 })).toBe('/dashboard');
    expect(defaultRoute({ ...base, custom_dashboards: null, default_custom_dashboard_id: 7 })).toBe(
      '/dashboard',
    );
  });
});

describe('primary colour (spec §1)', () => {
  const networks = [
    { id: 1, name: 'North', primary_color: '#7B2CBF' },
    { id: 2, name: 'South' },
  ];

  it("is the active network's colour", () => {
    expect(networkPrimaryColour({ ...base, networks, active_network_id: 1 })).toBe('#7b2cbf');
    expect(networkPrimaryColour({ ...base, networks, active_network: { id: 1 } })).toBe('#7b2cbf');
    expect(networkPrimaryColour({ ...base, networks, active_network: '1' })).toBe('#7b2cbf');
    expect(
      networkPrimaryColour({ ...base, networks: [{ id: 1, primary_colour: '#abc' }], active_network_id: 1 }),
    ).toBe('#aabbcc');
  });

  it('falls back to the default (null) without an active network or a valid colour', () => {
    expect(networkPrimaryColour(null)).toBeNull();
    expect(networkPrimaryColour(base)).toBeNull();
    expect(networkPrimaryColour({ ...base, networks, active_network_id: 2 })).toBeNull();
    expect(networkPrimaryColour({ ...base, networks, active_network_id: 9 })).toBeNull();
    expect(
      networkPrimaryColour({ ...base, networks: [{ id: 1, primary_color: 'red; x' }], active_network_id: 1 }),
    ).toBeNull();
  });

  it('builds a ten-shade palette with the colour at shade 7', () => {
    const palette = paletteFromColour('#7b2cbf');
    expect(palette).toHaveLength(10);
    expect(palette[7]).toBe('#7b2cbf');
    for (const shade of palette) expect(shade).toMatch(/^#[0-9a-f]{6}$/);
  });

  it('finds the active network name', () => {
    expect(activeNetwork({ ...base, networks, active_network_id: 2 })?.name).toBe('South');
  });
});

describe('user details', () => {
  it('accepts only answers with an id and a permission list', () => {
    expect(parseCurrentUser(base)).toEqual(base);
    expect(parseCurrentUser({ id: 1 })).toBeNull();
    expect(parseCurrentUser({ permission_list: [] })).toBeNull();
    expect(parseCurrentUser({ id: 1, permission_list: [1] })).toBeNull();
    expect(parseCurrentUser('x')).toBeNull();
  });

  it('names the user', () => {
    expect(displayName(base)).toBe('Ada Lovelace');
    expect(displayName({ id: 1, permission_list: [], email: 'a@b.c' })).toBe('a@b.c');
  });

  it('reports a timezone mismatch only when the details say so', () => {
    expect(timezoneMismatch(base)).toBeNull();
    expect(
      timezoneMismatch({ ...base, timezone_info: { is_different: false, network_name: 'North' } }),
    ).toBeNull();
    expect(
      timezoneMismatch({
        ...base,
        timezone_info: { is_different: true, network_name: 'North', difference_in_hours: -5 },
      }),
    ).toEqual({ networkName: 'North', hours: -5, userTimezone: undefined, networkTimezone: undefined });
  });
});
