import { Button, Group, Select, Stack, Text } from '@mantine/core';
import { useMemo } from 'react';
import { useServerForm } from '../../../shared/forms/useServerForm';
import { failureText, timezoneOptions, type ProfileUser } from '../api';
import { useSaveSetting } from '../hooks';
import { Section } from './Section';

export function TimezoneSection({ user }: { user: ProfileUser }) {
  const zones = useMemo(timezoneOptions, []);
  const save = useSaveSetting<string>('/timezone', 'Your time zone has been saved.', (timezone) => ({
    timezone,
  }));
  const form = useServerForm({ timezone: user.timezone ?? null }, (d) => save(d.timezone!), {
    validate: (d) => ({ timezone: d.timezone ? undefined : 'Choose a time zone' }),
    errorsOf: (error) => ({ timezone: failureText(error) }),
  });
  const zone = form.draft.timezone;
  const info = user.timezone_info;
  return (
    <Section title="Time zone" description="Dates and times in the portal are shown in this time zone.">
      <form onSubmit={form.onSubmit} noValidate aria-label="Time zone">
        <Stack gap="sm">
          <Select
            label="Time zone"
            searchable
            data={zones}
            value={zone}
            onChange={(value) => form.set('timezone', value)}
            nothingFoundMessage="No such time zone"
            limit={200}
            error={!zone ? 'Choose a time zone' : form.err('timezone')}
          />
          {info?.is_different && info.network_timezone && (
            <Text fz="sm" c="dimmed">
              Your network {info.network_name ? `(${info.network_name}) ` : ''}uses {info.network_timezone}.
            </Text>
          )}
          <Group justify="flex-end">
            <Button type="submit" loading={form.pending} disabled={!zone}>
              Save time zone
            </Button>
          </Group>
        </Stack>
      </form>
    </Section>
  );
}
