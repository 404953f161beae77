import {
  Alert,
  Anchor,
  Button,
  ColorSwatch,
  Group,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { Link, useParams } from 'react-router-dom';
import { canModifyNetwork } from '../../../app/access';
import { ApiError } from '../../../shared/api/client';
import { formatInZone, viewerTimezone } from '../../../shared/dates';
import { usePermissions, useSession } from '../../../shared/session';
import { PRODUCT_NAME } from '../../../shared/ui/BrandMark';
import { networks } from '../api';
import { ReadOnlyNetworksNote } from './NetworksPage';
import { actionErrorText } from '../../../shared/ui/action-error';

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" fw={600} tt="uppercase" lts={0.4}>
        {label}
      </Text>
      <div>{children}</div>
    </div>
  );
}

/** networks/details/:id (spec §2): one network. */
export function NetworkDetailsPage() {
  const { id = '' } = useParams();
  const query = networks.useOne(id);
  const mayModify = canModifyNetwork(usePermissions());
  const timezone = viewerTimezone(useSession((s) => s.user));
  const network = query.data;
  const notFound = query.error instanceof ApiError && query.error.status === 404;

  return (
    <Stack gap="md">
      <title>{`${network?.name ?? 'Network'} · ${PRODUCT_NAME}`}</title>
      <div>
        <Anchor component={Link} to="/networks" size="sm">
          ← Networks
        </Anchor>
        <Group justify="space-between" align="flex-end">
          <Title order={1} fz="h2">
            {network?.name ?? 'Network'}
          </Title>
          {network && mayModify && (
            <Button component={Link} to={`/networks/${network.id}`}>
              Edit network
            </Button>
          )}
        </Group>
      </div>
      {query.isError ? (
        <Alert color="red" role="alert" title={notFound ? 'Network not found' : 'Could not load the network'}>
          {notFound ? 'This network does not exist.' : actionErrorText(query.error)}
        </Alert>
      ) : !network ? (
        <Skeleton height={180} radius="md" aria-label="Loading network" />
      ) : (
        <>
          {!mayModify && <ReadOnlyNetworksNote />}
          <Paper withBorder radius="md" p="md">
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
              <Field label="Name">{network.name}</Field>
              <Field label="Time zone">{network.timezone}</Field>
              <Field label="Primary colour">
                <Group gap="xs">
                  <ColorSwatch color={network.primary_colour} size={20} aria-hidden />
                  <Text ff="monospace">{network.primary_colour}</Text>
                </Group>
              </Field>
              <Field label="Created">{formatInZone(network.created_at, timezone)}</Field>
              <Field label="Last changed">{formatInZone(network.updated_at, timezone)}</Field>
            </SimpleGrid>
          </Paper>
        </>
      )}
    </Stack>
  );
}

export default NetworkDetailsPage;
