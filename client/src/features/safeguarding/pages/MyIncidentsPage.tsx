import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ListParams } from '../../../shared/api/resource';
import { viewerTimezone } from '../../../shared/dates';
import { useSession } from '../../../shared/session';
import { ResourceListPage } from '../../../shared/ui/ResourceListPage';
import { safeguardingApi, type ReaderIncident } from '../api';
import {
  incidentColumns,
  incidentRowAttributes,
  incidentRowClass,
  incidentRowLabel,
} from '../components/IncidentColumns';
import { SAFEGUARDING_KEY } from '../hooks';

const usePartnerIncidents = ({ page, size }: ListParams) =>
  useQuery({
    queryKey: [SAFEGUARDING_KEY, 'partner', page, size],
    queryFn: () => safeguardingApi.partnerList(page, size),
    placeholderData: keepPreviousData,
    meta: { silentErrors: true },
  });

/** Incidents about the partner's own students (route my-safeguarding-incidents). */
export function MyIncidentsPage() {
  const timezone = viewerTimezone(useSession((s) => s.user));
  return (
    <ResourceListPage<ReaderIncident>
      title="Safeguarding incidents"
      description="Concerns recorded about your students, with what has been done about them."
      noun="incidents"
      useList={usePartnerIncidents}
      columns={incidentColumns(timezone)}
      rowHref={(incident) => `/my-safeguarding-incidents/${incident.id}`}
      rowLabel={incidentRowLabel}
      rowClassName={(incident) => incidentRowClass(incident)}
      rowAttributes={incidentRowAttributes}
      empty={{ none: 'No incidents have been recorded about your students.' }}
    />
  );
}
