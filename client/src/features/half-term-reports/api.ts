import { useQuery } from '@tanstack/react-query';
import { apiRequest, type Query } from '../../shared/api/client';
import { createResource, listQuery, useAreaCommand, type ListParams } from '../../shared/api/resource';
import type { ApiSchema, Page } from '../../shared/api/types';

/** The server's views (generated from the API document; decision 0057). */
export type Report = ApiSchema<'ReportView'>;
export type ReportDetail = ApiSchema<'ReportDetailView'>;
export type Timeframe = ApiSchema<'TimeframeView'>;
export type TimeframeInput = ApiSchema<'CreateTimeframeBody'>;
export type TimeframeDetails = ApiSchema<'TimeframeDetailsView'>;
export type Revision = ApiSchema<'RevisionItem'>;
export type TimelineItem = ApiSchema<'TimelineItem'>;
export type Verification = ApiSchema<'VerifyView'>;
export type AssignmentItem = ApiSchema<'AssignmentItem'>;
export type DueTimeframe = ApiSchema<'DueTimeframe'>;
export type ReportViewItem = ApiSchema<'ViewItem'>;

export const REPORT_STATES = [
  'draft',
  'submitted',
  'in_qa',
  'returned',
  'qa_approved',
  'in_lead_review',
  'published',
  'discarded',
] as const;
export const stateLabel = (s: string) =>
  ({
    draft: 'Draft',
    submitted: 'Submitted',
    in_qa: 'In QA',
    returned: 'Returned',
    qa_approved: 'QA approved',
    in_lead_review: 'In lead review',
    published: 'Published',
    discarded: 'Discarded',
  })[s] ?? s;
export const stateColor = (s: string) =>
  ({
    draft: 'gray',
    submitted: 'blue',
    in_qa: 'indigo',
    returned: 'orange',
    qa_approved: 'teal',
    in_lead_review: 'violet',
    published: 'green',
    discarded: 'dark',
  })[s] ?? 'gray';

/** Reports under the `half-term-reports` root (live: `halfTermReport-{id}` streams). */
export const reports = createResource<ReportDetail>({
  root: 'half-term-reports',
  path: '/api/v1/half-term-reports/',
});
/** Timeframes under the `report-submission-timeframes` root (live: `reportTimeframe-{id}`). */
export const timeframes = createResource<Timeframe, TimeframeInput>({
  root: 'report-submission-timeframes',
  path: '/api/v1/report-submission-timeframes/',
});

export type ReportListKind = 'all' | 'mine' | 'qa' | 'qa-lead' | 'assignments' | 'partner';

/** A list hook for one of the report lists (`/`, `/mine`, `/qa`, `/qa-lead`, `/assignments`, `/partner`). */
export const reportList =
  (kind: ReportListKind) =>
  <Filters extends Query>(params: ListParams<Filters>) =>
    useQuery({
      queryKey: reports.keys.other('list', kind, params),
      queryFn: ({ signal }) =>
        apiRequest<Page<Report>>(
          kind === 'all' ? '/api/v1/half-term-reports/' : `/api/v1/half-term-reports/${kind}`,
          {
            signal,
            query: listQuery(params),
          },
        ),
      meta: { silentErrors: true },
    });

export const useTimeline = (id: string) =>
  useQuery({
    queryKey: reports.keys.other('timeline', id),
    queryFn: ({ signal }) => apiRequest<{ items: TimelineItem[] }>(reports.url(id, '/timeline'), { signal }),
    meta: { silentErrors: true },
  });
export const useRevisions = (id: string) =>
  useQuery({
    queryKey: reports.keys.other('revisions', id),
    queryFn: ({ signal }) => apiRequest<{ items: Revision[] }>(reports.url(id, '/revisions'), { signal }),
    meta: { silentErrors: true },
  });
export const useViews = (id: string, enabled: boolean) =>
  useQuery({
    queryKey: reports.keys.other('views', id),
    enabled,
    queryFn: ({ signal }) => apiRequest<{ items: ReportViewItem[] }>(reports.url(id, '/views'), { signal }),
    meta: { silentErrors: true },
  });
export const useVerify = (id: string, enabled: boolean) =>
  useQuery({
    queryKey: reports.keys.other('verify', id),
    enabled,
    queryFn: ({ signal }) => apiRequest<Verification>(reports.url(id, '/verify'), { signal }),
    meta: { silentErrors: true },
  });

export type QaMetrics = ApiSchema<'QaMetricsView'>;
export const useQaMetrics = (id: string) =>
  useQuery({
    queryKey: timeframes.keys.other('qa-metrics', id),
    queryFn: ({ signal }) => apiRequest<QaMetrics>(timeframes.url(id, '/qa-metrics'), { signal }),
    retry: false,
    meta: { silentErrors: true },
  });

export const useTimeframeDetails = (id: string) =>
  useQuery({
    queryKey: timeframes.keys.other('details', id),
    queryFn: ({ signal }) => apiRequest<TimeframeDetails>(timeframes.url(id, '/details'), { signal }),
    meta: { silentErrors: true },
  });

/** One workflow command, `POST /half-term-reports/{id}/{action}` with its body. */
export const useReportAction = () =>
  useAreaCommand(
    reports.root,
    ({ id, action, body }: { id: string; action: string; body?: Record<string, unknown> }) =>
      apiRequest<{ id: string; position: string }>(reports.url(id, `/${action}`), {
        method: 'POST',
        json: body ?? {},
      }),
    { silentErrors: true },
  );

export const useGenerate = () =>
  useAreaCommand(
    timeframes.root,
    (id: string) =>
      apiRequest<{ created: number; existing: number; position: string }>(timeframes.url(id, '/generate'), {
        method: 'POST',
        json: {},
      }),
    {
      success: (r) => `Reports generated: ${r.created} new, ${r.existing} already there`,
      silentErrors: true,
      also: (_r, _v, queryClient) => queryClient.invalidateQueries({ queryKey: [reports.root] }),
    },
  );

export const useAssign = () =>
  useAreaCommand(
    reports.root,
    (items: AssignmentItem[]) =>
      apiRequest<{ position: string; updated: number }>('/api/v1/half-term-reports/assignments', {
        method: 'PUT',
        json: { items },
      }),
    { success: (r) => `Assignments saved (${r.updated} changed)`, silentErrors: true },
  );

/**
 * Refreshes a draft's fact blocks when one of its writers opens it (decision 0068); quiet: the blocks
 * arrive through the live document, and a refusal (no longer a draft) changes nothing on screen.
 */
export const refreshFactsOnOpen = (id: string) =>
  apiRequest<{ changed: boolean }>(reports.url(id, '/refresh-facts'), { method: 'POST', json: {} }).catch(
    () => null,
  );

export type BulkPublishAnswer = ApiSchema<'BulkPublishAnswer'>;

/** The QA lead's bulk sign-off (decision 0068): each report with the hash the lead saw; per-item results. */
export const useBulkPublish = () =>
  useAreaCommand(
    reports.root,
    (items: { report_id: string; expected_hash: string }[]) =>
      apiRequest<BulkPublishAnswer>('/api/v1/half-term-reports/lead/publish', {
        method: 'POST',
        json: { items },
      }),
    {
      success: (r) =>
        r.refused === 0
          ? `Published ${r.published} report${r.published === 1 ? '' : 's'}`
          : `Published ${r.published}, ${r.refused} not published (see why below)`,
      silentErrors: true,
    },
  );
