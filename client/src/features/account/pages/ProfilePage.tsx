import { Alert, SimpleGrid, Skeleton, Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { PRODUCT_NAME } from '../../../shared/ui/BrandMark';
import { fetchCurrentUser } from '../../auth/api';
import { failureText, type ProfileUser } from '../api';
import { BirthDateSection } from '../sections/BirthDateSection';
import { LessonsSection } from '../sections/LessonsSection';
import { NamesSection } from '../sections/NamesSection';
import { NotificationEmailSection, VerifyNotificationEmail } from '../sections/NotificationEmailSection';
import { PasswordSection } from '../sections/PasswordSection';
import { TimezoneSection } from '../sections/TimezoneSection';
import { WeeklySummarySection } from '../sections/WeeklySummarySection';

/**
 * /profile: the signed-in user's own details and settings (spec §2, §7 "Auth and current user"). One
 * form per setting (`sections/`), each on `useServerForm` and its own `PUT /users/me[/…]` (`meApi`).
 */
export function ProfilePage() {
  const me = useQuery({
    queryKey: ['users', 'me'],
    queryFn: () => fetchCurrentUser(),
    staleTime: 5 * 60_000,
  });
  const user: ProfileUser | undefined = me.data;
  return (
    <Stack gap="md" maw={760}>
      <title>{`Profile · ${PRODUCT_NAME}`}</title>
      <Title order={1}>Your profile</Title>
      <VerifyNotificationEmail />
      {!user ? (
        me.isError ? (
          <Alert color="red" title="Could not load your profile" role="alert">
            {failureText(me.error)}
          </Alert>
        ) : (
          <Stack aria-busy="true" aria-label="Loading">
            <Skeleton height={120} />
            <Skeleton height={120} />
          </Stack>
        )
      ) : (
        <>
          <NamesSection user={user} />
          <TimezoneSection user={user} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <BirthDateSection user={user} />
            <LessonsSection user={user} />
          </SimpleGrid>
          <WeeklySummarySection user={user} />
          <NotificationEmailSection user={user} />
          <PasswordSection user={user} />
        </>
      )}
    </Stack>
  );
}
