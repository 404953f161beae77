import { Button } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
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
import { ReportIncidentModal } from '../components/ReportIncidentModal';
import { SAFEGUARDING_KEY } from '../hooks';

const useReportedByMe = ({ page, size }: ListParams) =>
  useQuery({
    queryKey: [SAFEGUARDING_KEY, 'reported-by-me', page, size],
    queryFn: () => safeguardingApi.reportedByMe(page, size),
    placeholderData: keepPreviousData,
    meta: { silentErrors: true },
  });

/**
 * my-reported-concerns (issue 18): the concerns the user reported, with their stage, updated live as a
 * lead takes them forward. Each opens in the reporter's view, where the reporter can add to the
 * write-up while the incident is open.
 */
export function ReportedConcernsPage() {
  const timezone = viewerTimezone(useSession((s) => s.user));
  const [reporting, setReporting] = useState(false);
  return (
    <ResourceListPage<ReaderIncident>
      title="My reported concerns"
      eyebrow="Safeguarding"
      description="Concerns you reported and where each one is now. A safeguarding lead takes each one forward; the stage changes here as they do."
      noun="concerns"
      action={<Button onClick={() => setReporting(true)}>Report a concern</Button>}
      useList={useReportedByMe}
      columns={incidentColumns(timezone)}
      rowHref={(incident) => `/safeguarding-incidents/${incident.id}`}
      rowLabel={incidentRowLabel}
      rowClassName={(incident) => incidentRowClass(incident)}
      rowAttributes={incidentRowAttributes}
      empty={{
        none: 'You have not reported any concerns. If you are worried about a student, report it now.',
      }}
    >
      <ReportIncidentModal opened={reporting} onClose={() => setReporting(false)} />
    </ResourceListPage>
  );
}
