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
import { useMemo, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { canModifyNetwork } from '../../../app/access';
import { ApiError } from '../../../shared/api/client';
import { fieldMessage } from '../../../shared/forms/field-message';
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
import { fieldErrorsOf } from '../../../shared/api/field-errors';
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
  const [draft, setDraft] = useState<NetworkInput>({
    name: network?.name ?? '',
    timezone: network?.timezone ?? 'Europe/London',
    primary_colour: network?.primary_colour ?? DEFAULT_NETWORK_COLOUR,
  });
  const [local, setLocal] = useState<Record<string, string>>({});
  const save = useNetworkMutation((body: NetworkInput) =>
    network ? networks.update(network.id, body) : networks.create(body),
  );
  const server = fieldErrorsOf(save.error) ?? {};
  const errorOf = (field: keyof NetworkInput) => local[field] || fieldMessage(server[field]);
  const forbidden = save.error instanceof ApiError && save.error.status === 403;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const errors: Record<string, string> = {};
    if (!draft.name.trim()) errors.name = 'Name is required';
    if (!draft.timezone) errors.timezone = 'Time zone is required';
    if (!HEX.test(draft.primary_colour.trim()))
      errors.primary_colour = 'Primary colour must be a hex colour like #0f716c';
    setLocal(errors);
    if (Object.keys(errors).length > 0) return;
    save.mutate(
      { name: draft.name.trim(), timezone: draft.timezone, primary_colour: draft.primary_colour.trim() },
      {
        onSuccess: (result) => {
          notifySuccess(
            network ? `Network “${draft.name.trim()}” saved.` : `Network “${draft.name.trim()}” created.`,
          );
          void navigate(`/networks/details/${result.id}`);
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate>
      <Paper withBorder radius="md" p="md" maw={560}>
        <Stack gap="md">
          <TextInput
            label="Name"
            required
            maxLength={200}
            value={draft.name}
            onChange={(e) => {
              setDraft({ ...draft, name: e.currentTarget.value });
              setLocal({ ...local, name: '' });
            }}
            error={errorOf('name')}
          />
          <Select
            label="Time zone"
            required
            searchable
            data={zones}
            value={draft.timezone}
            onChange={(value) => setDraft({ ...draft, timezone: value ?? '' })}
            error={errorOf('timezone')}
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
            onChange={(value) => setDraft({ ...draft, primary_colour: value })}
            error={errorOf('primary_colour')}
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
            <Button type="submit" loading={save.isPending}>
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
