import {
  Alert,
  Anchor,
  Button,
  ColorInput,
  Group,
  Paper,
  Select,
  Skeleton,
  Stack,
  TextInput,
  Title,
} from '@mantine/core';
import { useMemo } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { canModifyNetwork } from '../../../app/access';
import { ApiError } from '../../../shared/api/client';
import { useServerForm } from '../../../shared/forms/useServerForm';
import { notifySuccess } from '../../../shared/notify';
import { usePermissions } from '../../../shared/session';
import { PRODUCT_NAME } from '../../../shared/ui/BrandMark';
import {
  DEFAULT_NETWORK_COLOUR,
  networks,
  useNetworkMutation,
  type Network,
  type NetworkInput,
} from '../api';
import { ReadOnlyNetworksNote } from './NetworksPage';
import { actionErrorText } from '../../../shared/ui/action-error';

export const NEW_NETWORK = 'new';

const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

/** Every IANA time zone the browser knows (the server validates with the same database). */
export function timezoneOptions(): string[] {
  const intl = Intl as typeof Intl & { supportedValuesOf?: (key: string) => string[] };
  const zones = intl.supportedValuesOf?.('timeZone') ?? [];
  // Chromium lists UTC under its own name only through the alias; offer it explicitly.
  return zones.includes('UTC') ? zones : ['UTC', ...zones];
}

/** Swatches for the colour picker: the default dark teal first, then accessible darker hues. */
const SWATCHES = [DEFAULT_NETWORK_COLOUR, '#1c4e80', '#5b2a86', '#8e2c48', '#a64b00', '#2f6b2f', '#374151'];

function NetworkForm({ network }: { network: Network | null }) {
  const navigate = useNavigate();
  const zones = useMemo(timezoneOptions, []);
  const save = useNetworkMutation((body: NetworkInput) =>
    network ? networks.update(network.id, body) : networks.create(body),
  );
  const form = useServerForm(
    {
      name: network?.name ?? '',
      timezone: network?.timezone ?? 'Europe/London',
      primary_colour: network?.primary_colour ?? DEFAULT_NETWORK_COLOUR,
    },
    (d) =>
      save.mutateAsync({
        name: d.name.trim(),
        timezone: d.timezone,
        primary_colour: d.primary_colour.trim(),
      }),
    {
      validate: (d) => ({
        name: d.name.trim() ? undefined : 'Name is required',
        timezone: d.timezone ? undefined : 'Time zone is required',
        primary_colour: HEX.test(d.primary_colour.trim())
          ? undefined
          : 'Primary colour must be a hex colour like #0f716c',
      }),
      onSuccess: (result, d) => {
        notifySuccess(network ? `Network “${d.name.trim()}” saved.` : `Network “${d.name.trim()}” created.`);
        void navigate(`/networks/details/${result.id}`);
      },
    },
  );
  const { draft, set, err } = form;
  // The command's last refusal stays above the form (also when it named a field).
  const forbidden = save.error instanceof ApiError && save.error.status === 403;

  return (
    <form onSubmit={form.onSubmit} noValidate>
      <Paper withBorder radius="md" p="md" maw={560}>
        <Stack gap="md">
          <TextInput
            label="Name"
            required
            maxLength={200}
            value={draft.name}
            onChange={(e) => set('name', e.currentTarget.value)}
            error={err('name')}
          />
          <Select
            label="Time zone"
            required
            searchable
            data={zones}
            value={draft.timezone}
            onChange={(value) => set('timezone', value ?? '')}
            error={err('timezone')}
            limit={200}
            nothingFoundMessage="No time zone matches"
          />
          <ColorInput
            label="Primary colour"
            description="Buttons, links and highlights use it for everyone whose active network this is."
            required
            format="hex"
            swatches={SWATCHES}
            value={draft.primary_colour}
            onChange={(value) => set('primary_colour', value)}
            error={err('primary_colour')}
          />
          {save.error != null && (
            <Alert color="red" role="alert" title={forbidden ? 'Not allowed' : 'Network not saved'}>
              {forbidden
                ? `${actionErrorText(save.error)} — changing networks needs an administrator with the network permission (CAN_MODIFY_NETWORK).`
                : actionErrorText(save.error)}
            </Alert>
          )}
          <Group justify="flex-end" gap="xs">
            <Button
              variant="default"
              component={Link}
              to={network ? `/networks/details/${network.id}` : '/networks'}
            >
              Cancel
            </Button>
            <Button type="submit" loading={form.pending}>
              {network ? 'Save network' : 'Create network'}
            </Button>
          </Group>
        </Stack>
      </Paper>
    </form>
  );
}

/** networks/:id (spec §2): create (`new`) or edit a network's name, time zone and primary colour. */
export function NetworkEditPage() {
  const { id = NEW_NETWORK } = useParams();
  const creating = id === NEW_NETWORK;
  const query = networks.useOne(creating ? null : id);
  const mayModify = canModifyNetwork(usePermissions());
  const notFound = query.error instanceof ApiError && query.error.status === 404;
  const title = creating ? 'New network' : `Edit ${query.data?.name ?? 'network'}`;

  return (
    <Stack gap="md">
      <title>{`${title} · ${PRODUCT_NAME}`}</title>
      <div>
        <Anchor component={Link} to="/networks" size="sm">
          ← Networks
        </Anchor>
        <Title order={1} fz="h2">
          {title}
        </Title>
      </div>
      {!mayModify && <ReadOnlyNetworksNote />}
      {query.isError ? (
        <Alert color="red" role="alert" title={notFound ? 'Network not found' : 'Could not load the network'}>
          {notFound ? 'This network does not exist.' : actionErrorText(query.error)}
        </Alert>
      ) : creating || query.data ? (
        <NetworkForm key={query.data?.updated_at ?? 'new'} network={creating ? null : query.data!} />
      ) : (
        <Skeleton height={260} radius="md" aria-label="Loading network" />
      )}
    </Stack>
  );
}

export default NetworkEditPage;
