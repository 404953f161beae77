import { apiRequest, type Query } from '../../shared/api/client';
import type { ApiSchema, Page, Written } from '../../shared/api/types';

/** Safeguarding API (server/src/safeguarding): types mirror the server's views. */

/** The workflow's statuses and risk levels, from the API document (the server's IncidentView). */
export type IncidentStatus = ApiSchema<'IncidentView'>['status'];
export type RiskLevel = ApiSchema<'IncidentView'>['risk_level'];

export const INCIDENT_STATUSES: readonly IncidentStatus[] = [
  'reported',
  'acknowledged',
  'under_review',
  'actions',
  'partner_informed',
  'partner_feedback',
  'closed',
];
export const RISK_LEVELS: readonly RiskLevel[] = ['low', 'medium', 'high'];

export const STATUS_LABELS: Record<IncidentStatus, string> = {
  reported: 'Reported',
  acknowledged: 'Acknowledged',
  under_review: 'Under review',
  actions: 'Actions',
  partner_informed: 'Partner informed',
  partner_feedback: 'Partner feedback',
  closed: 'Closed',
};
export const STATUS_COLOURS: Record<IncidentStatus, string> = {
  reported: 'red',
  acknowledged: 'orange',
  under_review: 'yellow',
  actions: 'blue',
  partner_informed: 'violet',
  partner_feedback: 'grape',
  closed: 'gray',
};
export const RISK_COLOURS: Record<RiskLevel, string> = { low: 'teal', medium: 'orange', high: 'red' };

/** Which workflow steps each status allows (the server's decider is the authority; this picks the buttons). */
export const ALLOWED_FROM = {
  acknowledge: ['reported'],
  review: ['acknowledged'],
  action: ['under_review', 'actions'],
  informPartner: ['under_review', 'actions'],
  partnerFeedback: ['partner_informed', 'partner_feedback'],
  close: ['under_review', 'actions', 'partner_informed', 'partner_feedback'],
  reopen: ['closed'],
} as const satisfies Record<string, readonly IncidentStatus[]>;

/** Views from the API document (`npm run openapi`; decision 0048): no hand-copied shapes. */
export type NamedRef = ApiSchema<'NamedRef'>;

/** In a partner's view an action has no assignee and its referral no reference (ADR 0037). */
export type IncidentAction = ApiSchema<'IncidentActionView'>;

/** In a partner's view, "partner informed" steps carry only when (not the lead's note). */
export type IncidentStep = ApiSchema<'IncidentStepView'>;

/** A whole case (the triage list's items). */
export type Incident = ApiSchema<'IncidentView'>;

export type ChronologyEntry = ApiSchema<'ChronologyEntryView'>;

/** Which view of an incident the server answered (ADR 0037). */
export type IncidentAudience = ApiSchema<'ReaderIncidentView'>['audience'];

/**
 * An incident as its reader may see it: the whole case for safeguarding staff ('case'), the partner
 * view, or the reporter view. The triage list's items are whole cases (no `audience`).
 */
export type ReaderIncident = Omit<ApiSchema<'ReaderIncidentView'>, 'audience'> & {
  audience?: IncidentAudience;
};

/** Absent `timeline` in a reporter's view; a partner's has no escalations, claims or the lead's notes. */
export type IncidentDetails = ReaderIncident & Pick<ApiSchema<'IncidentDetailsView'>, 'timeline'>;

export type IncidentType = ApiSchema<'IncidentTypeView'>;

export type IncidentViewEntry = ApiSchema<'IncidentViewEntry'>;

export interface IncidentFilters {
  page: number;
  size: number;
  status?: IncidentStatus[];
  risk_level?: RiskLevel[];
  type_id?: string;
  student_id?: string;
  occurred_from?: string;
  occurred_to?: string;
}

export interface ReportIncidentInput {
  student_ids: string[];
  type_ids: string[];
  occurred_at: string;
  lesson_id?: string | null;
  description: string;
  immediate_action: string;
  lead_told_verbally: boolean;
  risk_level?: RiskLevel;
}

export type StudentOption = ApiSchema<'ReportableStudent'>;

const BASE = '/api/v1/safeguarding-incidents';
const TYPES = '/api/v1/safeguarding-incident-types';

export const safeguardingApi = {
  list: (filters: IncidentFilters) =>
    apiRequest<Page<Incident>>(`${BASE}/`, { query: filters as unknown as Query }),
  partnerList: (page: number, size: number) =>
    apiRequest<Page<ReaderIncident>>(`${BASE}/partner`, { query: { page, size } }),
  /** The concerns the signed-in user reported, in the reporter view (issue 18). */
  reportedByMe: (page: number, size: number) =>
    apiRequest<Page<ReaderIncident>>(`${BASE}/reported-by-me`, { query: { page, size } }),
  get: (id: string) => apiRequest<IncidentDetails>(`${BASE}/${encodeURIComponent(id)}`),
  views: (id: string) =>
    apiRequest<Page<IncidentViewEntry>>(`${BASE}/${encodeURIComponent(id)}/views`, { query: { size: 100 } }),
  verify: (id: string) =>
    apiRequest<{ valid: boolean; events: number; broken_at?: number }>(
      `${BASE}/${encodeURIComponent(id)}/verify`,
    ),
  chronology: (studentId: string) =>
    apiRequest<Page<ChronologyEntry>>(`${BASE}/students/${encodeURIComponent(studentId)}/chronology`, {
      query: { size: 200 },
    }),
  report: (input: ReportIncidentInput) => apiRequest<Written>(`${BASE}/`, { method: 'POST', json: input }),
  step: (id: string, step: string, body: Record<string, unknown> = {}) =>
    apiRequest<Written>(`${BASE}/${encodeURIComponent(id)}/${step}`, { method: 'POST', json: body }),
  types: (includeRetired = false) =>
    apiRequest<Page<IncidentType>>(`${TYPES}/`, { query: { size: 500, include_retired: includeRetired } }),
  createType: (body: { name: string; guidance: string }) =>
    apiRequest<Written>(`${TYPES}/`, { method: 'POST', json: body }),
  updateType: (id: string, body: { name?: string; guidance?: string }) =>
    apiRequest<Written>(`${TYPES}/${encodeURIComponent(id)}`, { method: 'PUT', json: body }),
  retireType: (id: string) => apiRequest<Written>(`${TYPES}/${encodeURIComponent(id)}`, { method: 'DELETE' }),
  /** Students the caller may report about (any for staff; partners: their own customer's). */
  students: (query: string) =>
    apiRequest<Page<StudentOption>>(`${BASE}/reportable-students`, {
      query: { query: query || undefined, size: 20 },
    }),
};
