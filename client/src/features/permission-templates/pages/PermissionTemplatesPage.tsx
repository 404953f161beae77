import { Button } from '@mantine/core';
import { Link } from 'react-router-dom';
import { formatInZone, viewerTimezone } from '../../../shared/dates';
import { useSession } from '../../../shared/session';
import { ResourceListPage, RowLink } from '../../../shared/ui/ResourceListPage';
import { templates, type PermissionTemplate } from '../api';

/** permission-templates (spec §2): named sets of partner permissions, searchable and paged. */
export function PermissionTemplatesPage() {
  const timezone = viewerTimezone(useSession((state) => state.user));
  const href = (t: PermissionTemplate) => `/permission-templates/${t.id}`;
  return (
    <ResourceListPage<PermissionTemplate>
      title="Permission templates"
      eyebrow="Networks and permissions"
      noun="templates"
      action={
        <Button component={Link} to="/permission-templates/new">
          New template
        </Button>
      }
      search={{ label: 'Search', placeholder: 'Template name' }}
      useList={templates.useList}
      rowHref={href}
      empty={{ none: 'No templates yet', search: 'No templates match the search' }}
      columns={[
        { accessor: 'name', title: 'Name', render: (t) => <RowLink to={href(t)}>{t.name}</RowLink> },
        { accessor: 'permissions', title: 'Permissions', render: (t) => `${t.permissions.length}` },
        { accessor: 'updated_at', title: 'Updated', render: (t) => formatInZone(t.updated_at, timezone) },
      ]}
    />
  );
}

export default PermissionTemplatesPage;
