import { Alert, Anchor, Badge, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router-dom';
import { canAudit, canManageUserRelations, canModifyUser, isAdmin } from '../../../app/access';
import { ApiError } from '../../../shared/api/client';
import { formatInZone, viewerTimezone } from '../../../shared/dates';
import { usePermissions, useSession } from '../../../shared/session';
import { PRODUCT_NAME } from '../../../shared/ui/BrandMark';
import { Icon } from '../../../shared/ui/icons';
import { ScreenSkeleton } from '../../../shared/ui/ScreenSkeleton';
import { LinkedPartnersCard } from '../../relations/components/LinkedPartnersCard';
import { LinkedStudentsCard } from '../../relations/components/LinkedStudentsCard';
import { useUser } from '../api';
import { AccountActions } from '../components/AccountActions';
import { actionErrorText } from '../components/ConfirmDialog';
import { ContactsCard } from '../components/ContactsCard';
import { ImpersonateButton } from '../components/ImpersonateButton';
import { PermissionsEditor } from '../components/PermissionsEditor';
import { StatusBadges } from '../components/StatusBadges';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" fw={600} tt="uppercase" lts={0.4}>
        {label}
      </Text>
      <Text size="sm">{children}</Text>
    </div>
  );
}

/** Whether the signed-in user is a parent / carer (spec §6: parents cannot see additional user notes). */
function viewerIsParent(user: unknown): boolean {
  const profile = (user as { customer_profile?: { type?: unknown } | null } | null)?.customer_profile;
  return profile?.type === 'parent';
}

/** users/:id/details: profile, type, customers, contacts, status, account actions and permissions. */
export function UserDetailsPage() {
  const { id = '' } = useParams();
  const viewer = useSession((state) => state.user);
  const permissions = usePermissions();
  const query = useUser(id);
  const timezone = viewerTimezone(viewer);

  if (query.isPending) return <ScreenSkeleton rows={4} />;
  if (query.isError) {
    const notFound = query.error instanceof ApiError && query.error.status === 404;
    return (
      <Alert color="red" title={notFound ? 'User not found' : 'The user could not be loaded'} role="alert">
        {notFound ? 'There is no user with this id, or you may not see them.' : actionErrorText(query.error)}
        <Group mt="sm">
          <Button size="xs" variant="default" onClick={() => void query.refetch()}>
            Try again
          </Button>
          <Button size="xs" variant="subtle" component={Link} to="/users">
            All users
          </Button>
        </Group>
      </Alert>
    );
  }
  const user = query.data;
  const admin = isAdmin(permissions);
  const showNotes = !viewerIsParent(viewer);
  // Partners act on their customer's users with PARTNER_CAN_EDIT_* / DISABLE_*; the server decides per user.
  const partnerHas = (prefix: string) => permissions.some((p) => p.startsWith(prefix));
  const canEdit = admin || partnerHas('PARTNER_CAN_EDIT_');
  const canDisable = admin || partnerHas('PARTNER_CAN_DISABLE_');
  // Relations (ADR 0034): managers see and edit them; a partner user sees their own linked students.
  const manageRelations = canManageUserRelations(permissions);
  const ownPage = viewer !== null && String(viewer.id) === user.id;

  return (
    <Stack gap="md">
      <title>{`${user.full_name} · ${PRODUCT_NAME}`}</title>
      <Anchor component={Link} to="/users" size="sm">
        <Group gap={4}>
          <Icon name="arrowLeft" size={14} /> All users
        </Group>
      </Anchor>
      <Group justify="space-between" align="flex-start">
        <div>
          <Group gap="xs" mb={6}>
            <Badge variant="light" radius="sm">
              {user.type_label}
            </Badge>
            {user.customer_profile?.type_label && (
              <Badge variant="outline" color="gray" radius="sm">
                {user.customer_profile.type_label}
              </Badge>
            )}
          </Group>
          <Title order={1} fz="h2">
            {user.full_name}
          </Title>
          <Text c="dimmed" size="sm">
            {user.login}
          </Text>
          <div style={{ marginTop: 8 }}>
            <StatusBadges user={user} />
          </div>
        </div>
        <Group gap="xs">
          <ImpersonateButton user={user} />
          {canAudit(permissions) && (
            <Button
              variant="default"
              component={Link}
              to={`/users/${user.id}/audit`}
              leftSection={<Icon name="clock" size={16} />}
            >
              Audit
            </Button>
          )}
          {canEdit && (
            <Button component={Link} to={`/users/${user.id}`} leftSection={<Icon name="user" size={16} />}>
              Edit
            </Button>
          )}
        </Group>
      </Group>

      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Paper withBorder radius="md" p="md">
          <Title order={2} fz="h4" mb="sm">
            Profile
          </Title>
          <SimpleGrid cols={2} spacing="sm">
            <Field label="First name">{user.first_name}</Field>
            <Field label="Last name">{user.last_name}</Field>
            <Field label="E-mail">{user.email}</Field>
            <Field label="Timezone">{user.timezone}</Field>
            <Field label="Customers">
              {user.customers.length === 0 ? '—' : user.customers.map((c) => c.name ?? c.id).join(', ')}
            </Field>
            <Field label="Last activity">
              {user.last_action === 'N/A' ? 'N/A' : formatInZone(user.last_action, timezone)}
            </Field>
            <Field label="Created">{formatInZone(user.created_at, timezone)}</Field>
            <Field label="Updated">{formatInZone(user.updated_at, timezone)}</Field>
          </SimpleGrid>
          {showNotes && (
            <div style={{ marginTop: 12 }}>
              <Field label="Notes">
                <span style={{ whiteSpace: 'pre-wrap' }}>{user.notes || '—'}</span>
              </Field>
            </div>
          )}
        </Paper>
        <AccountActions user={user} canDisable={canDisable} />
      </SimpleGrid>

      <ContactsCard user={user} canEdit={canEdit} />
      {user.user_type === 'partner' && (manageRelations || ownPage) && (
        <LinkedStudentsCard key={user.id} user={user} canEdit={manageRelations} />
      )}
      {user.user_type === 'student' && manageRelations && <LinkedPartnersCard key={user.id} user={user} />}
      {admin && canModifyUser(permissions) && <PermissionsEditor key={user.updated_at} user={user} />}
    </Stack>
  );
}

export default UserDetailsPage;
