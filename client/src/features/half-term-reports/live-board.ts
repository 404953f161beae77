import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { apiRequest } from '../../shared/api/client';
import type { ApiSchema } from '../../shared/api/types';
import { onLiveConnected, onReportPresence } from '../../shared/live/live-connection';
import { reports } from './api';

/** One report someone has open, with who and how (decision 0067). */
export type ReportPresenceItem = ApiSchema<'ReportPresenceView'>;
export type PresenceEditor = ApiSchema<'PresenceEditor'>;

/** Under the reports root: every report event (state, claim) refetches it too. */
export const presenceKey = reports.keys.other('presence');

export const MODE_LABEL: Record<string, string> = {
  edit: 'editing',
  suggest: 'suggesting',
  view: 'viewing',
};

/**
 * Who has which report open now (`GET /half-term-reports/presence`, only reports the reader may list).
 * Administrators and the QA rooms are told over `/live` (`report-presence`) the moment someone opens or
 * leaves a report; the push is only a signal, the list is read again through the reader's access.
 * Pushes are not replayed, so a (re)connect reads it again; others (assignment managers) poll.
 */
export function useReportPresence(enabled = true) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!enabled) return undefined;
    const refetch = () => void queryClient.invalidateQueries({ queryKey: presenceKey });
    const stopPush = onReportPresence(refetch);
    const stopConnected = onLiveConnected(refetch);
    return () => {
      stopPush();
      stopConnected();
    };
  }, [enabled, queryClient]);
  return useQuery({
    queryKey: presenceKey,
    enabled,
    queryFn: ({ signal }) =>
      apiRequest<{ items: ReportPresenceItem[] }>('/api/v1/half-term-reports/presence', { signal }),
    refetchInterval: 30_000,
    meta: { silentErrors: true },
  });
}

/** Who has each report open, by report id (the lists' "Now" column). */
export function usePresenceByReport(enabled = true): Map<string, PresenceEditor[]> {
  const { data } = useReportPresence(enabled);
  return useMemo(() => new Map((data?.items ?? []).map((p) => [p.report_id, p.editors])), [data]);
}
