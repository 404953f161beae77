import { ActionIcon, Indicator, Tooltip } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link } from 'react-router-dom';
import { liveSummaryOf } from '@portal/projections/streams';
import { onLiveMessage } from '../../../shared/live/live-connection';
import { Icon } from '../../../shared/ui/icons';
import { NOTIFICATIONS_KEY, useUnread } from '../api';

/**
 * The header's bell (issue 18 item 3): the unread count, live. A new notification comes from an event
 * that already reaches this person's sockets (a concern reported to a lead, a stage of their own
 * concern, a change to a lesson they teach, a mark or amendment to a school's attendance contact), so
 * those messages refresh the count; the read cursor's own messages refresh it through the
 * stream registry (other tabs clear it too).
 */
export function NotificationBell() {
  const unread = useUnread();
  const client = useQueryClient();
  useEffect(
    () =>
      onLiveMessage((message) => {
        const kind = liveSummaryOf(message)?.kind;
        // Lesson changes (decision 0062) and attendance alerts (decision 0061) come from the lesson streams.
        if (kind === 'incident' || kind === 'lesson')
          void client.invalidateQueries({ queryKey: [NOTIFICATIONS_KEY] });
      }),
    [client],
  );
  const count = unread.data?.count ?? 0;
  const label = count === 0 ? 'Notifications' : `Notifications, ${count} unread`;
  return (
    <Tooltip label={label} withArrow>
      <Indicator
        label={count > 99 ? '99+' : count}
        size={18}
        color="red"
        disabled={count === 0}
        offset={4}
        inline
      >
        <ActionIcon
          component={Link}
          to="/notifications"
          variant="subtle"
          color="gray"
          size="lg"
          aria-label={label}
        >
          <Icon name="bell" size={20} />
        </ActionIcon>
      </Indicator>
    </Tooltip>
  );
}
