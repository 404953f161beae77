import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient, keepPreviousData } from '@tanstack/react-query';
import { createElement, useEffect, useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import { liveSummaryOf } from '@portal/projections/streams';
import { onLiveMessage } from '../../shared/live/live-connection';
import { useAreaCommand } from '../../shared/api/resource';
import { getItem } from '../../shared/storage';
import { EscalationMessage } from './components/EscalationMessage';
import { safeguardingApi, type IncidentFilters, type ReportIncidentInput } from './api';

export const SAFEGUARDING_KEY = 'safeguarding';
/** Kept across logouts (spec §4): the user agreed to browser notifications. */
export const BROWSER_NOTIFICATIONS_AGREEMENT = 'browser_notifications_agreement';

export const useIncidents = (filters: IncidentFilters) =>
  useQuery({
    queryKey: [SAFEGUARDING_KEY, 'incidents', filters],
    queryFn: () => safeguardingApi.list(filters),
    placeholderData: keepPreviousData,
  });

/** One small query per status, for the counts on the triage tabs. */
export const useStatusCount = (status: IncidentFilters['status']) =>
  useQuery({
    queryKey: [SAFEGUARDING_KEY, 'count', status],
    queryFn: async () => (await safeguardingApi.list({ page: 1, size: 1, status })).total,
  });

export const useIncident = (id: string) =>
  useQuery({ queryKey: [SAFEGUARDING_KEY, 'incident', id], queryFn: () => safeguardingApi.get(id) });

export const useIncidentTypes = (includeRetired = false) =>
  useQuery({
    queryKey: [SAFEGUARDING_KEY, 'types', includeRetired],
    queryFn: () => safeguardingApi.types(includeRetired),
  });

/** Runs a command, refreshes the safeguarding caches, shows the server's detail when refused. */
export const useSafeguardingCommand = <Input>(run: (input: Input) => Promise<unknown>, success?: string) =>
  useAreaCommand(SAFEGUARDING_KEY, run, { success });

export const useReportIncident = () =>
  useSafeguardingCommand((input: ReportIncidentInput) => safeguardingApi.report(input), 'Incident reported');

function browserNotify(title: string, body: string, tag: string) {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  if (
    getItem<string | boolean>(BROWSER_NOTIFICATIONS_AGREEMENT) !== true &&
    getItem(BROWSER_NOTIFICATIONS_AGREEMENT) !== 'true'
  )
    return;
  try {
    new Notification(title, { body, tag });
  } catch {
    // Some browsers only allow notifications from a service worker; the in-page alert still shows.
  }
}

/**
 * Live triage for whoever may receive safeguarding messages (the server sends them only to sockets
 * with safeguarding access): refresh lists and counts, announce new and escalated incidents in the
 * page and, when the user agreed, as a browser notification.
 */
export function useSafeguardingLive() {
  const client = useQueryClient();
  const navigate = useNavigate();
  useEffect(
    () =>
      onLiveMessage((message) => {
        // Typed by stream kind (LiveSummaries in the shared contract).
        const live = liveSummaryOf(message);
        // Reading an incident records a view (and opening a feedback link records an open): refresh only
        // those logs, or each refetch of the incident would record a view and trigger the next one.
        if (live?.kind === 'incidentViews') {
          void client.invalidateQueries({ queryKey: [SAFEGUARDING_KEY, 'views', live.id] });
          return;
        }
        if (live?.kind === 'feedbackLinks') {
          void client.invalidateQueries({ queryKey: [SAFEGUARDING_KEY, 'feedback-links', live.id] });
          return;
        }
        if (live?.kind !== 'incident' && live?.kind !== 'incidentType') return;
        void client.invalidateQueries({ queryKey: [SAFEGUARDING_KEY] });
        if (live.kind !== 'incident') return;
        const data = live.message.data;
        if (message.type === 'SafeguardingIncidentReported' && data.incidentId) {
          const risk = data.riskLevel ? ` (${data.riskLevel} risk)` : '';
          notifications.show({
            id: `incident-${data.incidentId}`,
            color: data.riskLevel === 'high' ? 'red' : 'orange',
            title: 'New safeguarding incident',
            message: `A new incident was reported${risk}. It is at the top of the list.`,
            autoClose: 6000,
          });
          browserNotify('New safeguarding incident', `A new incident was reported${risk}.`, data.incidentId);
        }
        if (message.type === 'SafeguardingIncidentEscalated' && data.incidentId) {
          const id = `escalated-${data.incidentId}`;
          notifications.show({
            id,
            color: 'red',
            title: 'Incident not acknowledged',
            message: createElement(EscalationMessage, {
              minutes: data.minutesUnacknowledged,
              onOpen: () => {
                notifications.hide(id);
                void navigate(`/safeguarding-incidents/${data.incidentId}`);
              },
            }),
            autoClose: false,
          });
          browserNotify(
            'Safeguarding incident escalated',
            'An incident is waiting for acknowledgement.',
            `esc-${data.incidentId}`,
          );
        }
      }),
    [client, navigate],
  );
}

/** Calls `onArrival` with the id of each incident reported while the page is open (to highlight it). */
export function useIncidentArrivals(onArrival: (incidentId: string) => void) {
  const callback = useRef(onArrival);
  callback.current = onArrival;
  useEffect(
    () =>
      onLiveMessage((message) => {
        const id = (message.data as { incidentId?: string } | null)?.incidentId;
        if (message.type === 'SafeguardingIncidentReported' && id) callback.current(id);
      }),
    [],
  );
}
