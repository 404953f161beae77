import { Alert, Button, ColorSwatch, Group, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import { canModifyNetwork } from '../../../app/access';
import { activeNetwork } from '../../../shared/current-user';
import { usePermissions, useSession } from '../../../shared/session';
import { ResourceListPage, RowLink } from '../../../shared/ui/ResourceListPage';
import { networks, type Network } from '../api';

/** Shown to readers who may not change networks, so the missing buttons are not a mystery. */
export function ReadOnlyNetworksNote() {
  return (
    <Alert color="gray" variant="light" title="Read only">
      Creating or changing a network needs an administrator with the network permission (CAN_MODIFY_NETWORK).
    </Alert>
  );
}

/** networks (spec §2): every network with its time zone and primary colour. */
export function NetworksPage() {
  const mayModify = canModifyNetwork(usePermissions());
  const activeId = activeNetwork(useSession((s) => s.user))?.id;
  const href = (n: Network) => `/networks/details/${n.id}`;
  return (
    <ResourceListPage<Network>
      title="Networks"
      eyebrow="Networks and permissions"
      noun="networks"
      action={
        mayModify && (
          <Button component={Link} to="/networks/new">
            New network
          </Button>
        )
      }
      notice={!mayModify && <ReadOnlyNetworksNote />}
      search={{ label: 'Search', placeholder: 'Network name' }}
      useList={networks.useList}
      rowHref={href}
      empty={{ none: 'No networks yet', search: 'No networks match the search' }}
      columns={[
        {
          accessor: 'name',
          title: 'Name',
          render: (n) => (
            <Group gap="xs" wrap="nowrap">
              <ColorSwatch color={n.primary_colour} size={16} aria-hidden />
              <RowLink to={href(n)}>{n.name}</RowLink>
              {String(activeId) === n.id && (
                <Text size="xs" c="dimmed">
                  (your active network)
                </Text>
              )}
            </Group>
          ),
        },
        { accessor: 'timezone', title: 'Time zone' },
        {
          accessor: 'primary_colour',
          title: 'Primary colour',
          render: (n) => (
            <Text ff="monospace" size="sm">
              {n.primary_colour}
            </Text>
          ),
        },
      ]}
    />
  );
}

export default NetworksPage;
