import { formatInZone } from '../../shared/dates';
import { permissionLabel } from '../../shared/permissions';

const PROFILE_FIELDS: Record<string, string> = {
  firstName: 'first name',
  lastName: 'last name',
  email: 'e-mail',
  timezone: 'timezone',
  notes: 'notes',
  customerId: 'customer',
  customerType: 'customer role',
  networkId: 'network',
};

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const list = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** One line saying what an audit event (a user-stream event) changed. */
export function describeEvent(type: string, data: Record<string, unknown>, timeZone: string): string {
  switch (type) {
    case 'UserCreated':
      return `Account created (${str(data.login)})`;
    case 'UserProfileUpdated': {
      const changes =
        typeof data.changes === 'object' && data.changes !== null ? Object.keys(data.changes) : [];
      const names = changes.map((key) => PROFILE_FIELDS[key] ?? key);
      return names.length ? `Profile updated: ${names.join(', ')}` : 'Profile updated';
    }
    case 'UserActivated':
      return 'Account activated';
    case 'UserDeactivated':
      return data.scheduled === true ? 'Account deactivated (as scheduled)' : 'Account deactivated';
    case 'UserDeactivationScheduled':
      return `Deactivation scheduled for ${formatInZone(str(data.at), timeZone)}`;
    case 'UserDeactivationCancelled':
      return 'Scheduled deactivation cancelled';
    case 'UserBlocked':
      return 'Account blocked';
    case 'UserUnblocked':
      return 'Account unblocked';
    case 'QualityIssueSet':
      return `Quality issue set: ${str(data.reason)}`;
    case 'QualityIssueUnset':
      return 'Quality issue cleared';
    case 'UserPermissionsChanged': {
      const parts = [
        ...list(data.added).map((p) => `+ ${permissionLabel(p)}`),
        ...list(data.removed).map((p) => `− ${permissionLabel(p)}`),
      ];
      return `Permissions changed${parts.length ? `: ${parts.join(', ')}` : ''}`;
    }
    case 'UserStudentLinksChanged': {
      const linked = list(data.linked).length;
      const unlinked = list(data.unlinked).length;
      const parts = [linked ? `${linked} linked` : '', unlinked ? `${unlinked} unlinked` : ''].filter(
        Boolean,
      );
      return `Linked students changed${parts.length ? `: ${parts.join(', ')}` : ''}`;
    }
    case 'ActiveNetworkChanged':
      return 'Active network changed';
    case 'UserContactAdded':
      return `Contact added: ${str(data.name)}`;
    case 'UserContactUpdated':
      return `Contact updated: ${str(data.name)}`;
    case 'UserContactRemoved':
      return 'Contact removed';
    case 'PasswordChanged':
      return 'Password changed';
    case 'UserImpersonated':
      return 'Signed in as this user (impersonation started)';
    case 'EhcpRequested': {
      const asked = list(data.recipientIds).length;
      return `EHCP requested from ${asked} ${asked === 1 ? 'person' : 'people'}`;
    }
    default:
      return type;
  }
}
