import { Badge, Button, Card, Group, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useMemo } from 'react';
import { Link } from 'react-router-dom';
import { mayReportSafeguarding, userTypeLabel } from '../../../app/access';
import { ReportConcernCard } from '../../safeguarding/components/ReportConcernCard';
import { HomeToday } from '../components/HomeToday';
import { GROUP_ICONS } from '../../../app/layouts/PortalLayout';
import { navigationFor } from '../../../app/routes';
import { isBuilt } from '../../../app/built-screens';
import { activeNetwork, firstName } from '../../../shared/current-user';
import { usePermissions, useSession } from '../../../shared/session';
import { PRODUCT_NAME } from '../../../shared/ui/BrandMark';
import { Icon } from '../../../shared/ui/icons';

function greeting(hour: number): string {
  if (hour < 12) return 'Good morning';
  if (hour < 18) return 'Good afternoon';
  return 'Good evening';
}

/** Dashboard: greets the user, shows what needs them today (by role, live) and links to every area they may open. */
export function DashboardPage() {
  const user = useSession((state) => state.user);
  const permissions = usePermissions();
  const groups = useMemo(
    () =>
      navigationFor(permissions, isBuilt).filter((group) => group.heading !== 'Dashboard and notifications'),
    [permissions],
  );
  const network = activeNetwork(user);
  const name = user ? firstName(user) : '';

  return (
    <Stack gap="xl">
      <title>{`Dashboard · ${PRODUCT_NAME}`}</title>
      <div>
        <Group gap="xs" mb={6}>
          <Badge variant="light" radius="sm">
            {userTypeLabel(permissions)}
          </Badge>
          {network?.name && (
            <Badge variant="outline" color="gray" radius="sm">
              {network.name}
            </Badge>
          )}
        </Group>
        <Title order={1}>
          {greeting(new Date().getHours())}, {name}
        </Title>
        <Text c="dimmed" mt={4} maw={640}>
          What needs you today, and every area of the portal your account can open.
        </Text>
      </div>

      {mayReportSafeguarding(permissions) && <ReportConcernCard />}

      <HomeToday />

      <section aria-labelledby="areas-heading">
        <Title order={2} fz="h4" id="areas-heading" mb="md">
          Your areas
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2, xl: 3 }} spacing="md">
          {groups.map((group) => (
            <Card key={group.heading} withBorder radius="lg" padding="lg" shadow="xs">
              <Group gap="sm" mb="sm" wrap="nowrap">
                <ThemeIcon variant="light" size={38} radius="md">
                  <Icon name={GROUP_ICONS[group.heading] ?? 'layout'} size={20} />
                </ThemeIcon>
                <Text fw={650}>{group.heading}</Text>
              </Group>
              <Group gap={8}>
                {group.items.map((item) => (
                  <Button
                    key={item.to}
                    component={Link}
                    to={item.to}
                    size="compact-sm"
                    variant="light"
                    radius="xl"
                    fw={500}
                  >
                    {item.label}
                  </Button>
                ))}
              </Group>
            </Card>
          ))}
        </SimpleGrid>
        {groups.length === 0 && (
          <Text c="dimmed">
            Your account has no areas yet. Ask an administrator for the permissions you need.
          </Text>
        )}
      </section>
    </Stack>
  );
}
