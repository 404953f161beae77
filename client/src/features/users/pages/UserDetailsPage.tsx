import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Paper,
  Progress,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { NAMED_PERMISSIONS } from '@portal/projections/permissions';
import {
  canAudit,
  canManageUserRelations,
  canModifyUser,
  has,
  isAdmin,
  isPartner,
  mayReportSafeguarding,
} from '../../../app/access';
import { ApiError } from '../../../shared/api/client';
import { formatInZone, viewerTimezone } from '../../../shared/dates';
import { usePermissions, useSession } from '../../../shared/session';
import { PRODUCT_NAME } from '../../../shared/ui/BrandMark';
import { Icon } from '../../../shared/ui/icons';
import { ScreenSkeleton } from '../../../shared/ui/ScreenSkeleton';
import { useCustomFields } from '../../custom-fields/api';
import { CustomFieldsCard } from '../../custom-fields/CustomFieldValues';
import { useUser, type CustomerRole, type UserView } from '../api';
import { areaPaths, mayActOn, viewerIsParent, type UsersArea } from '../my-users';
import { LinkedPartnersCard } from '../../relations/components/LinkedPartnersCard';
import { LinkedStudentsCard } from '../../relations/components/LinkedStudentsCard';
import { AccountActions } from '../components/AccountActions';
import { AvailabilityCard } from '../components/AvailabilityCard';
import { ContactsCard } from '../components/ContactsCard';
import { EhcpCard } from '../components/EhcpCard';
import { ImpersonateButton } from '../components/ImpersonateButton';
import { PermissionsEditor } from '../components/PermissionsEditor';
import { StatusBadges } from '../components/StatusBadges';
import { StudentFilesCard } from '../components/StudentFilesCard';
import { actionErrorText } from '../../../shared/ui/action-error';

// The report form (and its date picker) loads only when someone opens it.
const ReportIncidentModal = lazy(() =>
  import('../../safeguarding/components/ReportIncidentModal').then((m) => ({
    default: m.ReportIncidentModal,
  })),
);

/** "EHCP access and upload" (spec §6; server EHCP_PERMISSION). */
const EHCP_PERMISSION = NAMED_PERMISSIONS.EHCP;

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" fw={600} tt="uppercase" lts={0.4}>
        {label}
      </Text>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </div>
  );
}

/** Spec §3: a one-page profile counts as present only with an id and progress above 0. */
function OnePageProfileSummary({ profile }: { profile: { id: string; progress: number } | null }) {
  return (
    <Paper withBorder radius="md" p="md">
      <Group justify="space-between" mb={profile ? 'xs' : 0}>
        <Title order={2} fz="h4">
          One-page profile
        </Title>
        {profile ? (
          <Anchor component={Link} to={`/one-page-profiles/${profile.id}/details`} size="sm">
            Open the profile
          </Anchor>
        ) : (
          <Text size="sm" c="dimmed">
            Not started yet.
          </Text>
        )}
      </Group>
      {profile && (
        <Group gap="sm" wrap="nowrap">
          <Progress
            value={profile.progress}
            size="md"
            style={{ flex: 1 }}
            aria-label={`One-page profile ${profile.progress}% complete`}
          />
          <Text size="sm" fw={600}>
            {profile.progress}%
          </Text>
        </Group>
      )}
    </Paper>
  );
}

/** The user's custom field values (administrators: the definitions are theirs to read). */
function UserCustomFields({ user }: { user: UserView }) {
  const fields = useCustomFields();
  if (fields.isPending) return null;
  if (fields.isError)
    return (
      <Alert color="red" role="alert" title="Custom fields could not be loaded">
        {actionErrorText(fields.error)}
      </Alert>
    );
  return <CustomFieldsCard fields={fields.data.items} values={user.custom_fields} />;
}

/** The signed-in partner's customer role (customer_profile.type), if any. */
function viewerCustomerType(user: unknown): CustomerRole | null {
  const type = (user as { customer_profile?: { type?: unknown } | null } | null)?.customer_profile?.type;
  return type === 'super-admin' || type === 'admin' || type === 'link-contact' || type === 'parent'
    ? type
    : null;
}

/**
 * users/:id/details and my-users/:id/details: profile, type, customers, contacts, status, account
 * actions and permissions. Partners get only the actions their PARTNER_CAN_* permissions allow on this
 * user (the same rules the server applies), and parents never see notes (spec §6).
 */
export function UserDetailsPage({ area = 'users' }: { area?: UsersArea }) {
  const { id = '' } = useParams();
  const viewer = useSession((state) => state.user);
  const permissions = usePermissions();
  const query = useUser(id);
  const timezone = viewerTimezone(viewer);
  const navigate = useNavigate();
  const [reporting, setReporting] = useState(false);

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
          <Button size="xs" variant="subtle" component={Link} to={areaPaths.list(area)}>
            {areaPaths.listLabel(area)}
          </Button>
        </Group>
      </Alert>
    );
  }
  const user = query.data;
  const admin = isAdmin(permissions);
  const showNotes = !viewerIsParent(viewer);
  // Partners act on their customer's users with PARTNER_CAN_EDIT_* / DISABLE_* / CHANGE_PASSWORD_*.
  const canEdit = mayActOn(permissions, 'edit', user);
  const canPassword = mayActOn(permissions, 'password', user);
  const canDisable = mayActOn(permissions, 'disable', user);
  const editPath = areaPaths.edit(area, user);
  const student = user.user_type === 'student';
  // Files: administrators and EHCP holders for every student, partners for the students they can see
  // (deleting needs their edit permission); the server checks the same.
  const ehcp = has(permissions, EHCP_PERMISSION);
  const seesFiles = student && (admin || ehcp || isPartner(permissions));
  // Availability: administrators, or the user themselves (server rule).
  const seesAvailability = user.user_type !== 'partner' && (admin || viewer?.id === user.id);
  // Relations (ADR 0034): managers see and edit them; a partner user sees their own linked students.
  const manageRelations = canManageUserRelations(permissions);
  const ownPage = viewer !== null && String(viewer.id) === user.id;

  return (
    <Stack gap="md">
      <title>{`${user.full_name} · ${PRODUCT_NAME}`}</title>
      <Anchor component={Link} to={areaPaths.list(area)} size="sm">
        <Group gap={4}>
          <Icon name="arrowLeft" size={14} /> {areaPaths.listLabel(area)}
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
          {student && mayReportSafeguarding(permissions) && (
            <Button
              variant="light"
              color="red"
              leftSection={<Icon name="shield" size={16} />}
              onClick={() => setReporting(true)}
            >
              Report a concern
            </Button>
          )}
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
          {(canEdit || canPassword) && editPath && (
            <Button component={Link} to={editPath} leftSection={<Icon name="user" size={16} />}>
              {canEdit ? 'Edit' : 'Change password'}
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

      {student && <OnePageProfileSummary profile={user.one_page_profile ?? null} />}
      {user.user_type === 'student' && (
        <EhcpCard
          student={user}
          permissions={permissions}
          viewerId={viewer ? String(viewer.id) : null}
          viewerCustomerType={viewerCustomerType(viewer)}
          timezone={timezone}
        />
      )}
      {admin && <UserCustomFields user={user} />}
      <ContactsCard user={user} canEdit={canEdit} />
      {seesFiles && (
        // Adding and deleting files need EHCP access and upload (ADR 0037); a partner also edits students.
        <StudentFilesCard
          user={user}
          canUpload={admin || ehcp}
          canDelete={admin || (ehcp && (!isPartner(permissions) || canEdit))}
        />
      )}
      {seesAvailability && <AvailabilityCard user={user} canEdit />}
      {user.user_type === 'partner' && (manageRelations || ownPage) && (
        <LinkedStudentsCard key={user.id} user={user} canEdit={manageRelations} />
      )}
      {user.user_type === 'student' && manageRelations && <LinkedPartnersCard key={user.id} user={user} />}
      {admin && canModifyUser(permissions) && <PermissionsEditor key={user.updated_at} user={user} />}
      {reporting && (
        <Suspense fallback={null}>
          <ReportIncidentModal
            opened
            student={{
              id: user.id,
              label: user.customer_name ? `${user.full_name} · ${user.customer_name}` : user.full_name,
            }}
            onClose={(incidentId) => {
              setReporting(false);
              if (incidentId) void navigate(`/safeguarding-incidents/${incidentId}`);
            }}
          />
        </Suspense>
      )}
    </Stack>
  );
}

export default UserDetailsPage;
