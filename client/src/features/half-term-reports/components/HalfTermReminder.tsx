import { Button, Group, List, Modal, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { isInternal } from '../../../app/access';
import { apiRequest } from '../../../shared/api/client';
import { usePermissions, useSession } from '../../../shared/session';
import { getItem, setItem } from '../../../shared/storage';
import { reports, type DueTimeframe } from '../api';
import { REMINDER_KEY, remember, reminderDue, reminderLogOf } from '../reminder';

/**
 * The half-term reminder (issue 17, decision 0057): once a day per user, internal users who still have
 * reports to write (draft or returned) in an open timeframe see what is due and by when.
 */
export default function HalfTermReminder() {
  const userId = String(useSession((s) => s.user?.id ?? ''));
  const internal = isInternal(usePermissions());
  const [due] = useState(
    () => !!userId && reminderDue(reminderLogOf(getItem(REMINDER_KEY)), userId, new Date()),
  );
  const [opened, setOpened] = useState(false);
  const summary = useQuery({
    queryKey: reports.keys.other('due-summary', userId),
    enabled: internal && due,
    queryFn: ({ signal }) =>
      apiRequest<{ timeframes: DueTimeframe[] }>('/api/v1/half-term-reports/mine/due-summary', { signal }),
    meta: { silentErrors: true },
  });
  const timeframes = summary.data?.timeframes ?? [];
  useEffect(() => {
    if (!due || timeframes.length === 0) return;
    setOpened(true);
    setItem(REMINDER_KEY, remember(reminderLogOf(getItem(REMINDER_KEY)), userId, new Date()));
  }, [due, timeframes.length, userId]);
  return (
    <Modal opened={opened} onClose={() => setOpened(false)} title="Half-term reports due">
      <Stack gap="sm">
        <List spacing="xs">
          {timeframes.map((t) => (
            <List.Item key={t.id}>
              <Text size="sm">
                <strong>{t.name}</strong>: {t.draft} to write
                {t.returned ? `, ${t.returned} returned for changes` : ''} — submit by {t.submit_by}
                {t.overdue ? ' (overdue)' : ''}
              </Text>
            </List.Item>
          ))}
        </List>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setOpened(false)}>
            Later
          </Button>
          <Button component={Link} to="/my-half-term-reports" onClick={() => setOpened(false)}>
            My reports
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
