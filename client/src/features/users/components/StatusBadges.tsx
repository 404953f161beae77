import { Badge, Group } from '@mantine/core';
import type { UserView } from '../api';

const STATUS_COLOURS = { active: 'teal', inactive: 'gray', deactivated: 'red' } as const;
const STATUS_LABELS = { active: 'Active', inactive: 'Inactive', deactivated: 'Deactivated' } as const;

/** Account status, plus blocked, quality issue and scheduled deactivation when they apply. */
export function StatusBadges({ user, size = 'sm' }: { user: UserView; size?: 'xs' | 'sm' | 'md' | 'lg' }) {
  return (
    <Group gap={6} wrap="wrap">
      <Badge size={size} variant="light" color={STATUS_COLOURS[user.status] ?? 'gray'}>
        {STATUS_LABELS[user.status] ?? user.status}
      </Badge>
      {user.is_blocked && (
        <Badge size={size} variant="filled" color="red">
          Blocked
        </Badge>
      )}
      {user.teacher_profile?.has_quality_issue && (
        <Badge size={size} variant="light" color="orange">
          Quality issue
        </Badge>
      )}
      {user.scheduled_for_deactivation && (
        <Badge size={size} variant="outline" color="yellow">
          Deactivation scheduled
        </Badge>
      )}
    </Group>
  );
}
