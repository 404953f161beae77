import { Button, ColorSwatch, Menu, Text } from '@mantine/core';
import { activeNetwork, type NetworkSummary } from '../../shared/current-user';
import { useSession } from '../../shared/session';
import { Icon } from '../../shared/ui/icons';
import { useSwitchNetwork } from './api';

const colourOf = (n: NetworkSummary) => n.primary_colour ?? n.primary_color ?? n.color ?? undefined;

/**
 * The header's active network switcher (spec §2 layout): the networks /users/me lists; choosing one
 * makes it active on the server, then the fresh user details are stored, so the primary colour (spec §1)
 * and the timezone-mismatch banner (spec §4) follow at once.
 */
export function NetworkSwitcher({ className }: { className?: string }) {
  const user = useSession((state) => state.user);
  const active = activeNetwork(user);
  const networks = Array.isArray(user?.networks) ? user.networks : [];
  const switchTo = useSwitchNetwork();
  const label = active?.name ?? 'No network';

  if (networks.length <= 1) {
    // Nothing to switch to: show the network, not a control that does nothing.
    return (
      <Button
        variant="default"
        size="xs"
        radius="xl"
        visibleFrom="sm"
        component="span"
        leftSection={<Icon name="network" size={14} />}
        aria-label={`Active network: ${label}`}
        className={className}
      >
        {label}
      </Button>
    );
  }

  return (
    <Menu position="bottom-start" width={260} withArrow shadow="md">
      <Menu.Target>
        <Button
          variant="default"
          size="xs"
          radius="xl"
          visibleFrom="sm"
          loading={switchTo.isPending}
          leftSection={<Icon name="network" size={14} />}
          rightSection={<Icon name="chevronDown" size={14} />}
          aria-label={`Active network: ${label}. Switch network`}
          className={className}
        >
          {label}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>Switch network</Menu.Label>
        {networks.map((network) => {
          const isActive = active !== null && String(active.id) === String(network.id);
          const colour = colourOf(network);
          return (
            <Menu.Item
              key={String(network.id)}
              aria-label={`${network.name ?? String(network.id)}${isActive ? ' (active)' : ''}`}
              disabled={switchTo.isPending}
              onClick={() => {
                if (!isActive) switchTo.mutate(String(network.id));
              }}
              leftSection={colour ? <ColorSwatch color={colour} size={14} aria-hidden /> : undefined}
              rightSection={isActive ? <Icon name="check" size={14} /> : undefined}
            >
              <Text component="span" display="block" size="sm" fw={isActive ? 600 : 400}>
                {network.name ?? String(network.id)}
              </Text>
              {network.timezone && (
                <Text component="span" display="block" size="xs" c="dimmed">
                  {network.timezone}
                </Text>
              )}
            </Menu.Item>
          );
        })}
      </Menu.Dropdown>
    </Menu>
  );
}
