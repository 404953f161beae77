import { Button, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { PRODUCT_NAME } from '../../../shared/ui/BrandMark';

interface StatusCardProps {
  code: string;
  title: string;
  message: string;
  actionLabel: string;
  actionTo: string;
  /** Runs before following the action link. */
  onAction?: () => void;
}

export function StatusCard({ code, title, message, actionLabel, actionTo, onAction }: StatusCardProps) {
  return (
    <Paper withBorder shadow="md" radius="lg" p="xl">
      <title>{`${title} · ${PRODUCT_NAME}`}</title>
      <Stack gap="sm" align="center" ta="center">
        {code.length <= 4 ? (
          <Text fw={800} fz={44} lh={1} c="var(--mantine-primary-color-filled)" aria-hidden="true">
            {code}
          </Text>
        ) : (
          <Text size="xs" fw={700} tt="uppercase" lts={0.6} c="var(--mantine-primary-color-filled)">
            {code}
          </Text>
        )}
        <Title order={1} fz="h2">
          {title}
        </Title>
        <Text c="dimmed">{message}</Text>
        <Button component={Link} to={actionTo} mt="sm" onClick={onAction}>
          {actionLabel}
        </Button>
      </Stack>
    </Paper>
  );
}
