import {
  AppShell,
  Avatar,
  Burger,
  Group,
  Menu,
  NavLink,
  Overlay,
  ScrollArea,
  Text,
  UnstyledButton,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useMemo, useState, type ReactNode } from 'react';
import { Link, Outlet, useLocation } from 'react-router-dom';
import { useEndSession, useLogout } from '../../features/auth/hooks/useLogout';
import { fetchCurrentUser } from '../../features/auth/api';
import { displayName } from '../../shared/current-user';
import { NetworkSwitcher } from '../../features/networks/NetworkSwitcher';
import { useLiveStatus } from '../../shared/live/live-connection';
import { useLive } from '../../shared/live/useLive';
import { useSafeguardingLive } from '../../features/safeguarding/hooks';
import { useSafeguardingPresence } from '../../features/safeguarding/presence';
import { usePermissions, useSession } from '../../shared/session';
import { ConnectionIndicator } from '../../shared/ui/ConnectionIndicator';
import { NotificationBell } from '../../features/notifications/components/NotificationBell';
import { Icon, type IconName } from '../../shared/ui/icons';
import { TimezoneMismatchBanner } from '../../shared/ui/TimezoneMismatchBanner';
import { ImpersonationBanner } from '../../features/impersonation/ImpersonationBanner';
import { BrandMark } from '../../shared/ui/BrandMark';
import { canAccessSafeguarding, userTypeLabel } from '../access';
import { activeNavTarget, navigationFor, type NavGroup } from '../routes';
import { isBuilt } from '../built-screens';
import classes from './PortalLayout.module.css';

const HalfTermReminder = lazy(() => import('../../features/half-term-reports/components/HalfTermReminder'));

/** Icons of the entries at the top of the sidebar (the "Dashboard and notifications" group). */
const FRONT_ICONS: Record<string, IconName> = {
  '/dashboard': 'dashboard',
  '/notifications': 'bell',
  '/my-child': 'user',
};

/** Sidebar icon per spec §2 heading. */
export const GROUP_ICONS: Record<string, IconName> = {
  'Dashboard and notifications': 'dashboard',
  Programmes: 'book',
  'Networks and permissions': 'network',
  'Groups and students': 'users',
  Lessons: 'video',
  'Half-term reports': 'report',
  'Partner organisation': 'building',
  Safeguarding: 'shield',
  Scheduling: 'calendar',
  Enrolments: 'clipboard',
  Users: 'user',
  Learning: 'bulb',
  Posts: 'message',
  'Teaching settings': 'hammer',
  'Bases and customers': 'home',
  'Products and pricing': 'tag',
  'Revenue and orders': 'coin',
  'Profile and messages': 'mail',
  Attendance: 'check',
  Recordings: 'video',
  'Reports and more': 'server',
  Contact: 'mail',
  Broadcasts: 'megaphone',
  Bookings: 'ticket',
  Mentoring: 'compass',
  Pathways: 'route',
  'Custom dashboards': 'layout',
};

export const SIDEBAR_BREAKPOINT = 'lg'; // 75em = 1200 px (spec §9: the sidebar collapses below 1200)

/**
 * A sidebar heading with its areas: a real button (focusable, Enter and Space) that says whether it is
 * expanded and which list it controls (issue 18 item 7). It opens on the group holding the current page.
 */
function SidebarGroup(props: {
  group: NavGroup;
  icon: ReactNode;
  activeTo: string | null;
  containsActive: boolean;
  onNavigate: () => void;
}) {
  const { group, activeTo, onNavigate } = props;
  const [opened, setOpened] = useState(props.containsActive);
  const listId = `sidebar-${group.heading.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  return (
    <NavLink
      component="button"
      type="button"
      label={group.heading}
      leftSection={props.icon}
      opened={opened}
      onChange={setOpened}
      aria-expanded={opened}
      aria-controls={listId}
      childrenOffset={30}
      className={classes.navLink}
    >
      <div id={listId}>
        {group.items.map((item) => (
          <NavLink
            key={item.to}
            component={Link}
            to={item.to}
            label={item.label}
            active={item.to === activeTo}
            onClick={onNavigate}
            className={classes.navChild}
          />
        ))}
      </div>
    </NavLink>
  );
}

function Sidebar({ groups, onNavigate }: { groups: NavGroup[]; onNavigate: () => void }) {
  const { pathname } = useLocation();
  const activeTo = activeNavTarget(groups, pathname);
  return (
    <nav aria-label="Portal areas">
      {groups.map((group) => {
        const icon = <Icon name={GROUP_ICONS[group.heading] ?? 'layout'} />;
        const [item] = group.items;
        if (group.items.length === 1 && item) {
          return (
            <NavLink
              key={group.heading}
              component={Link}
              to={item.to}
              label={group.heading === 'Dashboard and notifications' ? item.label : group.heading}
              leftSection={icon}
              active={item.to === activeTo}
              onClick={onNavigate}
              className={classes.navLink}
            />
          );
        }
        const containsActive = group.items.some((item) => item.to === activeTo);
        if (group.heading === 'Dashboard and notifications') {
          return group.items.map((item) => (
            <NavLink
              key={item.to}
              component={Link}
              to={item.to}
              label={item.label}
              leftSection={<Icon name={FRONT_ICONS[item.to] ?? 'layout'} />}
              active={item.to === activeTo}
              onClick={onNavigate}
              className={classes.navLink}
            />
          ));
        }
        return (
          <SidebarGroup
            key={group.heading}
            group={group}
            icon={icon}
            activeTo={activeTo}
            containsActive={containsActive}
            onNavigate={onNavigate}
          />
        );
      })}
    </nav>
  );
}

function initials(name: string): string {
  const parts = name.split(/\s+/).filter(Boolean);
  return (
    (parts[0]?.[0] ?? '') + (parts.length > 1 ? (parts[parts.length - 1]?.[0] ?? '') : '')
  ).toUpperCase();
}

/** Layout of the protected routes: header, permission-built sidebar and the page. */
export function PortalLayout() {
  const [opened, { toggle, close }] = useDisclosure(false);
  const user = useSession((state) => state.user);
  const updateUser = useSession((state) => state.updateUser);
  const permissions = usePermissions();
  const connection = useLiveStatus((state) => state.state);
  const logout = useLogout();
  // The server ended the session (password change, block, logout in another tab): only clear it here.
  useLive(useEndSession());
  // New and escalated safeguarding incidents are announced wherever the user is in the portal.
  useSafeguardingLive();
  useSafeguardingPresence(canAccessSafeguarding(permissions));
  const groups = useMemo(() => navigationFor(permissions, isBuilt), [permissions]);
  const { pathname } = useLocation();

  // Refresh the stored user details once per visit; a 401 here ends the session (API client rules).
  const me = useQuery({
    queryKey: ['users', 'me'],
    queryFn: () => fetchCurrentUser(),
    staleTime: 5 * 60_000,
  });
  useEffect(() => {
    if (me.data) updateUser(me.data);
  }, [me.data, updateUser]);

  useEffect(() => close(), [pathname, close]);

  const name = user ? displayName(user) : '';

  return (
    <AppShell
      header={{ height: 64 }}
      navbar={{ width: 296, breakpoint: SIDEBAR_BREAKPOINT, collapsed: { mobile: !opened } }}
      padding={0}
      className={classes.shell}
    >
      {/* The first stop of the Tab key: past the header and the sidebar to the page (issue 18 item 7). */}
      <a href="#main-content" className={classes.skipLink}>
        Skip to content
      </a>
      <AppShell.Header className={classes.header}>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap" gap="sm">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom={SIDEBAR_BREAKPOINT}
              size="sm"
              aria-label={opened ? 'Close navigation' : 'Open navigation'}
            />
            <Link to="/dashboard" className={classes.brandLink} aria-label="Tutoring Portal: dashboard">
              <BrandMark size="sm" />
            </Link>
            <NetworkSwitcher className={classes.networkButton} />
          </Group>
          <Group gap="sm" wrap="nowrap">
            <ConnectionIndicator state={connection} />
            <NotificationBell />
            <Menu position="bottom-end" width={220} withArrow shadow="md">
              <Menu.Target>
                <UnstyledButton className={classes.userButton} aria-label={`Account menu for ${name}`}>
                  <Group gap="xs" wrap="nowrap">
                    <Avatar
                      variant="filled"
                      color="var(--mantine-primary-color-filled)"
                      name={name}
                      radius="xl"
                      size={34}
                    >
                      {initials(name)}
                    </Avatar>
                    <div className={classes.userText}>
                      <Text size="sm" fw={600} lh={1.2} truncate>
                        {name}
                      </Text>
                      <Text size="xs" c="dimmed" lh={1.2}>
                        {userTypeLabel(permissions)}
                      </Text>
                    </div>
                    <Icon name="chevronDown" size={14} />
                  </Group>
                </UnstyledButton>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Label>{user?.email ?? name}</Menu.Label>
                <Menu.Item component={Link} to="/profile" leftSection={<Icon name="user" size={16} />}>
                  Profile
                </Menu.Item>
                <Menu.Item
                  component={Link}
                  to="/profile?section=password"
                  leftSection={<Icon name="key" size={16} />}
                >
                  Change password
                </Menu.Item>
                <Menu.Divider />
                <Menu.Item
                  color="red"
                  onClick={() => void logout()}
                  leftSection={<Icon name="logout" size={16} />}
                >
                  Log out
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
          </Group>
        </Group>
      </AppShell.Header>

      <AppShell.Navbar className={classes.navbar}>
        <AppShell.Section grow component={ScrollArea} px="sm" py="md">
          <Sidebar groups={groups} onNavigate={close} />
        </AppShell.Section>
      </AppShell.Navbar>

      {opened && (
        // Below 1200 px the open sidebar floats over the page: dim the page, a click outside closes it.
        <Overlay fixed hiddenFrom={SIDEBAR_BREAKPOINT} backgroundOpacity={0.35} zIndex={99} onClick={close} />
      )}

      <AppShell.Main className={classes.main} id="main-content" tabIndex={-1}>
        <div className={classes.content}>
          <TimezoneMismatchBanner user={user} />
          <ImpersonationBanner />
          <Suspense fallback={null}>
            <HalfTermReminder />
          </Suspense>
          <Outlet />
        </div>
      </AppShell.Main>
    </AppShell>
  );
}
