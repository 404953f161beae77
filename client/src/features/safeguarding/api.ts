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

export interface NamedRef {
  id: string;
  name: string;
}

/** In a partner's view an action has no assignee and its referral no reference (ADR 0037). */
export interface IncidentAction {
  id: string;
  description: string;
  assignee_id?: string;
  due_date: string;
  referral: { agency: string; reference?: string | null } | null;
  added_by?: string | null;
  added_at: string;
}

/** In a partner's view, "partner informed" steps carry only when (not the lead's note). */
export interface IncidentStep {
  at: string;
  by?: string | null;
  text?: string;
}

export interface Incident {
  id: string;
  status: IncidentStatus;
  risk_level: RiskLevel;
  reporter: NamedRef;
  students: NamedRef[];
  customer_ids: string[];
  types: NamedRef[];
  occurred_at: string;
  reported_at: string;
  lesson_id: string | null;
  description: string;
  immediate_action: string;
  lead_told_verbally: boolean;
  acknowledged_at: string | null;
  acknowledged_by: string | null;
  assigned_lead_id: string | null;
  /** The lead who claimed it (or the review assigned): "claimed by". */
  assigned_lead: NamedRef | null;
  escalated_at: string | null;
  closed_at: string | null;
  actions: IncidentAction[];
  partner_informed: IncidentStep[];
  partner_feedback: IncidentStep[];
  position: string;
}

export interface ChronologyEntry {
  position: string;
  incident_id: string;
  occurred_at: string;
  kind: string;
  summary: string;
  actor_id: string | null;
}

/** Which view of an incident the server answered (ADR 0037). */
export type IncidentAudience = 'case' | 'partner' | 'reporter';

/** Safeguarding staff only: absent in a partner's and a reporter's view. */
type CaseOnly = 'acknowledged_by' | 'assigned_lead_id' | 'assigned_lead' | 'escalated_at';
/** Absent in a reporter's view (what they reported and its status, nothing more). */
type NotForReporter = 'customer_ids' | 'actions' | 'partner_informed' | 'partner_feedback';

/**
 * An incident as its reader may see it: the whole case for safeguarding staff ('case'), the partner
 * view, or the reporter view. The triage list's items are whole cases (no `audience`).
 */
export type ReaderIncident = Omit<Incident, CaseOnly | NotForReporter> &
  Partial<Pick<Incident, CaseOnly | NotForReporter>> & { audience?: IncidentAudience };

export interface IncidentDetails extends ReaderIncident {
  /** Absent in a reporter's view; a partner's has no escalations, claims or the lead's notes. */
  timeline?: ChronologyEntry[];
}

export interface IncidentType {
  id: string;
  name: string;
  guidance: string;
  retired: boolean;
  created_at: string;
  updated_at: string;
}

export interface IncidentViewEntry {
  position: string;
  viewer: NamedRef;
  via: string;
  viewed_at: string;
}

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

export interface StudentOption {
  id: string;
  full_name: string;
  customer_name: string | null;
}

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
