import { Badge, Button, Group, Text } from '@mantine/core';
import { formatInZone, viewerTimezone } from '../../../shared/dates';
import { useSession } from '../../../shared/session';
import { ResourceListPage } from '../../../shared/ui/ResourceListPage';
import { useMarkRead, useNotifications, useUnread, type Notification } from '../api';

/** notifications (spec §2; issue 18 item 3): what the person was told, newest first, unread marked. */
export function NotificationsPage() {
  const timezone = viewerTimezone(useSession((s) => s.user));
  const unread = useUnread();
  const markRead = useMarkRead();
  const count = unread.data?.count ?? 0;
  return (
    <ResourceListPage<Notification>
      title="Notifications"
      description="What the portal told you, newest first. Open one to go to what it is about."
      noun="notifications"
      action={
        <Button
          variant="default"
          disabled={count === 0}
          loading={markRead.isPending}
          onClick={() => markRead.mutate(undefined)}
        >
          Mark all as read
        </Button>
      }
      useList={useNotifications}
      rowHref={(n) => n.link}
      rowLabel={(n) => `${n.unread ? 'Unread: ' : ''}${n.title}`}
      columns={[
        {
          accessor: 'title',
          title: 'Notification',
          render: (n) => (
            <Group gap="xs" wrap="nowrap">
              {n.unread && (
                <Badge size="xs" color="red" variant="filled">
                  New
                </Badge>
              )}
              <Text size="sm" fw={n.unread ? 600 : 400}>
                {n.title}
              </Text>
            </Group>
          ),
        },
        {
          accessor: 'created_at',
          title: 'When',
          width: 170,
          render: (n) => formatInZone(n.created_at, timezone),
        },
      ]}
      empty={{ none: 'Nothing yet. When something needs your attention, it appears here.' }}
    />
  );
}
