import { Button, Container, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useLogout } from '../../auth/hooks/useLogout';
import { BrandMark, PRODUCT_NAME } from '../../../shared/ui/BrandMark';
import classes from './HomePage.module.css';

/** Placeholder for the authenticated area until the portal's areas exist. */
export function HomePage() {
  const logout = useLogout();
  return (
    <div className={classes.root}>
      <title>{PRODUCT_NAME}</title>
      <header className={classes.header}>
        <Group justify="space-between" h="100%" px="lg" wrap="nowrap">
          <BrandMark size="sm" />
          <Button variant="default" onClick={logout}>
            Log out
          </Button>
        </Group>
      </header>
      <main>
        <Container size="sm" py={64}>
          <Paper withBorder radius="lg" p="xl" shadow="sm">
            <Stack gap="xs">
              <Title order={1} fz="h2">
                You are signed in
              </Title>
              <Text c="dimmed">
                The portal areas are being built. Students, programmes, lessons, attendance, reports and the
                rest will appear here as they are finished.
              </Text>
            </Stack>
          </Paper>
        </Container>
      </main>
    </div>
  );
}
