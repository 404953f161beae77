import { Button, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { PRODUCT_NAME } from '../../../shared/ui/BrandMark';
import { Icon, type IconName } from '../../../shared/ui/icons';

interface PortalMessageProps {
  icon: IconName;
  eyebrow: string;
  title: string;
  message: string;
}

/** A message page inside the portal layout with a way back to the dashboard. */
export function PortalMessage({ icon, eyebrow, title, message }: PortalMessageProps) {
  return (
    <Paper withBorder radius="lg" p={{ base: 'lg', sm: 48 }} shadow="xs" maw={720} mx="auto" mt="xl">
      <title>{`${title} · ${PRODUCT_NAME}`}</title>
      <Stack align="center" ta="center" gap="sm">
        <ThemeIcon size={56} radius="xl" variant="light">
          <Icon name={icon} size={28} />
        </ThemeIcon>
        <Text size="xs" fw={700} tt="uppercase" c="dimmed" lts={0.6}>
          {eyebrow}
        </Text>
        <Title order={1} fz="h2">
          {title}
        </Title>
        <Text c="dimmed" maw={480}>
          {message}
        </Text>
        <Button component={Link} to="/dashboard" mt="sm" leftSection={<Icon name="arrowLeft" size={16} />}>
          Back to the dashboard
        </Button>
      </Stack>
    </Paper>
  );
}

/** An area of the portal whose screens are not built yet (no sample data). */
export function NotBuiltPage({ area, group }: { area: string; group: string }) {
  return (
    <PortalMessage
      icon="hammer"
      eyebrow={group}
      title={area}
      message={`The ${area} area is not built yet. It will appear here once it is ready.`}
    />
  );
}

/** A route the user's permissions do not open. */
export function NoAccessPage({ area }: { area: string }) {
  return (
    <PortalMessage
      icon="lock"
      eyebrow="No access"
      title={area}
      message={`Your account does not have permission to open ${area}. Ask an administrator if you need it.`}
    />
  );
}
