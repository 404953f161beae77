import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInstant } from '../platform/http/dates.js';
import { MAX_PAGE_SIZE, MAX_SEARCH_LENGTH, PageQuery, SearchPageQuery } from '../platform/http/paging.js';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
  ValidateIf,
} from 'class-validator';
import {
  CORRECTABLE_FIELDS,
  INCIDENT_STATUSES,
  RISK_LEVELS,
  type CorrectableField,
  type IncidentStatus,
  type RiskLevel,
} from '@portal/projections';
import { PageOf } from '../platform/http/paging.js';
import { Written } from '../platform/http/written.js';
import { asArray } from '../platform/http/validation.js';

export class ListIncidentsQuery extends PageQuery {
  @ApiPropertyOptional({ enum: INCIDENT_STATUSES, isArray: true, description: 'Repeat the key for several' })
  @IsOptional()
  @Transform(asArray)
  @IsArray()
  @IsIn(INCIDENT_STATUSES, { each: true })
  status?: IncidentStatus[];
  @ApiPropertyOptional({ format: 'uuid', description: 'Incidents of this type' })
  @IsOptional()
  @IsUUID()
  type_id?: string;
  @ApiPropertyOptional({ enum: RISK_LEVELS, isArray: true })
  @IsOptional()
  @Transform(asArray)
  @IsArray()
  @IsIn(RISK_LEVELS, { each: true })
  risk_level?: RiskLevel[];
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUUID() student_id?: string;
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUUID() customer_id?: string;
  @ApiPropertyOptional({ description: 'Happened at or after (ISO 8601)' })
  @IsOptional()
  @IsInstant()
  occurred_from?: string;
  @ApiPropertyOptional({ description: 'Happened before (ISO 8601)' })
  @IsOptional()
  @IsInstant()
  occurred_to?: string;
}

export class PagingQuery extends PageQuery {}

export class ReportIncidentBody {
  @ApiProperty({ type: [String], format: 'uuid' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(50)
  @IsUUID('all', { each: true })
  student_ids!: string[];
  @ApiProperty({ type: [String], format: 'uuid' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(20)
  @IsUUID('all', { each: true })
  type_ids!: string[];
  @ApiProperty({ description: 'When it happened (ISO 8601; may be in the past)' })
  @IsInstant()
  occurred_at!: string;
  @ApiPropertyOptional({ nullable: true, type: String })
  @IsOptional()
  @ValidateIf((o: { lesson_id?: unknown }) => o.lesson_id !== null)
  @IsString()
  @MaxLength(100)
  lesson_id?: string | null;
  @ApiProperty() @IsString() @IsNotEmpty() @MaxLength(20_000) description!: string;
  @ApiProperty({ description: 'Immediate action taken' })
  @IsString()
  @MaxLength(20_000)
  immediate_action!: string;
  @ApiProperty({ description: 'Whether the safeguarding lead was told verbally' })
  @IsBoolean()
  lead_told_verbally!: boolean;
  @ApiPropertyOptional({ enum: RISK_LEVELS, default: 'medium' })
  @IsOptional()
  @IsIn(RISK_LEVELS)
  risk_level?: RiskLevel;
}

export class StartReviewBody {
  @ApiPropertyOptional({ format: 'uuid', description: 'The lead to assign (default: the caller)' })
  @IsOptional()
  @IsUUID()
  lead_id?: string;
}

export class AddActionBody {
  @ApiProperty() @IsString() @IsNotEmpty() @MaxLength(5000) description!: string;
  @ApiProperty({ format: 'uuid', description: 'The person responsible' }) @IsUUID() assignee_id!: string;
  @ApiProperty({ example: '2026-12-01', description: 'Due date (ISO 8601 date)' })
  @IsInstant()
  due_date!: string;
  @ApiPropertyOptional({ description: 'External agency referred to (children’s services, police, ...)' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  referral_agency?: string;
  @ApiPropertyOptional({ description: "The agency's reference" })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  referral_reference?: string;
}

export class PartnerInformedBody {
  @ApiProperty({ example: 'phone' }) @IsString() @IsNotEmpty() @MaxLength(100) method!: string;
  @ApiProperty() @IsString() @IsNotEmpty() @MaxLength(5000) note!: string;
}

export class PartnerFeedbackBody {
  @ApiProperty() @IsString() @IsNotEmpty() @MaxLength(20_000) feedback!: string;
}

export class CloseBody {
  @ApiProperty() @IsString() @IsNotEmpty() @MaxLength(5000) outcome!: string;
}

export class ReasonBody {
  @ApiProperty() @IsString() @IsNotEmpty() @MaxLength(5000) reason!: string;
}

export class RiskBody {
  @ApiProperty({ enum: RISK_LEVELS }) @IsIn(RISK_LEVELS) risk_level!: RiskLevel;
  @ApiProperty({ description: 'Why the risk level changes (required)' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(5000)
  reason!: string;
}

export class CorrectionBody {
  @ApiProperty({ enum: CORRECTABLE_FIELDS }) @IsIn(CORRECTABLE_FIELDS) field!: CorrectableField;
  @ApiProperty({ nullable: true, type: String, description: 'New value (null clears lesson_id)' })
  @ValidateIf((o: { value?: unknown }) => o.value !== null)
  @IsString()
  @MaxLength(20_000)
  value!: string | null;
  @ApiProperty() @IsString() @IsNotEmpty() @MaxLength(5000) reason!: string;
}

export class NamedRef {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
}

/** A student as people tell them apart (issue 18): name, school and year group. */
export class StudentRef extends NamedRef {
  @ApiProperty({ nullable: true, type: String, description: 'The student’s school' }) school!: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'From the one-page profile' })
  year_group!: string | null;
}

export class IncidentReferralView {
  @ApiProperty({ description: 'The external agency referred to' }) agency!: string;
  @ApiPropertyOptional({
    nullable: true,
    type: String,
    description: "The agency's reference. Absent in the partner view",
  })
  reference?: string | null;
}

/** An action on an incident; in a partner's view without assignee, author and agency reference (0037). */
export class IncidentActionView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() description!: string;
  @ApiPropertyOptional({ format: 'uuid', description: 'The person responsible. Absent in the partner view' })
  assignee_id?: string;
  @ApiProperty({ example: '2026-12-01', description: 'Due date (ISO 8601 date)' }) due_date!: string;
  @ApiProperty({ nullable: true, type: IncidentReferralView }) referral!: IncidentReferralView | null;
  @ApiPropertyOptional({ nullable: true, type: String, description: 'Absent in the partner view' })
  added_by?: string | null;
  @ApiProperty() added_at!: string;
}

/** A "partner informed" or "partner feedback" step; a partner sees when (and the feedback's text). */
export class IncidentStepView {
  @ApiProperty() at!: string;
  @ApiPropertyOptional({ nullable: true, type: String, description: 'Absent in the partner view' })
  by?: string | null;
  @ApiPropertyOptional({
    description: "The lead's note or the feedback. Absent in the partner view of 'partner informed'",
  })
  text?: string;
}

export class IncidentView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ enum: INCIDENT_STATUSES }) status!: string;
  @ApiProperty({ enum: RISK_LEVELS }) risk_level!: string;
  @ApiProperty({ type: NamedRef }) reporter!: NamedRef;
  @ApiProperty({ type: [StudentRef] }) students!: StudentRef[];
  @ApiProperty({ type: [String] }) customer_ids!: string[];
  @ApiProperty({ type: [NamedRef] }) types!: NamedRef[];
  @ApiProperty() occurred_at!: string;
  @ApiProperty() reported_at!: string;
  @ApiProperty({ nullable: true, type: String }) lesson_id!: string | null;
  @ApiProperty() description!: string;
  @ApiProperty() immediate_action!: string;
  @ApiProperty() lead_told_verbally!: boolean;
  @ApiProperty({ nullable: true, type: String }) acknowledged_at!: string | null;
  @ApiProperty({ nullable: true, type: String }) acknowledged_by!: string | null;
  @ApiProperty({ nullable: true, type: String }) assigned_lead_id!: string | null;
  @ApiProperty({
    nullable: true,
    type: NamedRef,
    description: 'The lead who claimed it (or was assigned by the review): "claimed by"',
  })
  assigned_lead!: NamedRef | null;
  @ApiProperty({ nullable: true, type: String }) escalated_at!: string | null;
  @ApiProperty({ nullable: true, type: String }) closed_at!: string | null;
  @ApiProperty({ type: [IncidentActionView] }) actions!: IncidentActionView[];
  @ApiProperty({ type: [IncidentStepView] }) partner_informed!: IncidentStepView[];
  @ApiProperty({ type: [IncidentStepView] }) partner_feedback!: IncidentStepView[];
  @ApiProperty({ description: "Global position of the incident's last event" }) position!: string;
}

export class ChronologyEntryView {
  @ApiProperty() position!: string;
  @ApiProperty({ format: 'uuid' }) incident_id!: string;
  @ApiProperty() occurred_at!: string;
  @ApiProperty() kind!: string;
  @ApiProperty() summary!: string;
  @ApiProperty({ nullable: true, type: String }) actor_id!: string | null;
}

/** Who reads an incident, and so which view they get (docs/decisions/0037-first-user-trust-access.md). */
export const INCIDENT_AUDIENCES = ['case', 'partner', 'reporter'] as const;
export type IncidentAudience = (typeof INCIDENT_AUDIENCES)[number];

const CASE_ONLY = 'Safeguarding staff only (absent in the partner and reporter views)';
const NOT_FOR_REPORTER = 'Absent in the reporter view';

/**
 * An incident as its reader may see it: safeguarding staff the whole case ('case', every field of
 * IncidentView); partners who see their customer's reports the facts, the steps and what was done
 * without the lead's case notes ('partner'); a reporter without safeguarding access what they reported
 * and its status ('reporter'). Fields a view leaves out are absent.
 */
export class ReaderIncidentView {
  @ApiProperty({ enum: INCIDENT_AUDIENCES, description: 'Which view this is' }) audience!: IncidentAudience;
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ enum: INCIDENT_STATUSES }) status!: string;
  @ApiProperty({
    enum: RISK_LEVELS,
    description: 'The current level; in the reporter view, the level they reported',
  })
  risk_level!: string;
  @ApiProperty({ type: NamedRef }) reporter!: NamedRef;
  @ApiProperty({ type: [StudentRef] }) students!: StudentRef[];
  @ApiPropertyOptional({ type: [String], description: NOT_FOR_REPORTER }) customer_ids?: string[];
  @ApiProperty({ type: [NamedRef] }) types!: NamedRef[];
  @ApiProperty() occurred_at!: string;
  @ApiProperty() reported_at!: string;
  @ApiProperty({ nullable: true, type: String }) lesson_id!: string | null;
  @ApiProperty() description!: string;
  @ApiProperty() immediate_action!: string;
  @ApiProperty() lead_told_verbally!: boolean;
  @ApiProperty({ nullable: true, type: String }) acknowledged_at!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, description: CASE_ONLY }) acknowledged_by?:
    string | null;
  @ApiPropertyOptional({ nullable: true, type: String, description: CASE_ONLY }) assigned_lead_id?:
    string | null;
  @ApiPropertyOptional({ nullable: true, type: NamedRef, description: CASE_ONLY })
  assigned_lead?: NamedRef | null;
  @ApiPropertyOptional({ nullable: true, type: String, description: CASE_ONLY }) escalated_at?: string | null;
  @ApiProperty({ nullable: true, type: String }) closed_at!: string | null;
  @ApiPropertyOptional({
    type: [IncidentActionView],
    description:
      'Partner view: id, description, due_date, added_at and the referral agency only (no reference, no ' +
      'assignee). Absent in the reporter view',
  })
  actions?: IncidentActionView[];
  @ApiPropertyOptional({
    type: [IncidentStepView],
    description: "Partner view: when only (not the lead's note). Absent in the reporter view",
  })
  partner_informed?: IncidentStepView[];
  @ApiPropertyOptional({ type: [IncidentStepView], description: NOT_FOR_REPORTER })
  partner_feedback?: IncidentStepView[];
  @ApiProperty({ description: "Global position of the incident's last event" }) position!: string;
}

export class IncidentDetailsView extends ReaderIncidentView {
  @ApiPropertyOptional({
    type: [ChronologyEntryView],
    description:
      "The incident's steps, by when they happened. Partner view: without escalations, claims and the " +
      "lead's reasons and notes. Absent in the reporter view",
  })
  timeline?: ChronologyEntryView[];
}

export class IncidentPage extends PageOf(IncidentView) {}

export class PartnerIncidentPage {
  @ApiProperty({ type: [ReaderIncidentView], description: "Partner views (audience 'partner')" })
  items!: ReaderIncidentView[];
  @ApiProperty() total!: number;
  @ApiProperty() page!: number;
  @ApiProperty() size!: number;
}

export class ChronologyPage extends PageOf(ChronologyEntryView) {}

export class IncidentViewEntry {
  @ApiProperty() position!: string;
  @ApiProperty({ type: NamedRef }) viewer!: NamedRef;
  @ApiProperty() via!: string;
  @ApiProperty() viewed_at!: string;
}

export class IncidentViewsPage extends PageOf(IncidentViewEntry) {}

export class VerifyView {
  @ApiProperty() valid!: boolean;
  @ApiProperty() events!: number;
  @ApiPropertyOptional({ description: 'Revision of the first event whose hash link does not match' })
  broken_at?: number;
}

export class IncidentWritten extends Written {}

export class ReportableStudentsQuery extends SearchPageQuery {
  @ApiPropertyOptional({ default: 20, minimum: 1, maximum: MAX_PAGE_SIZE })
  override size?: number;
  @ApiPropertyOptional({ description: "Text searched in the student's name", maxLength: MAX_SEARCH_LENGTH })
  override query?: string;
}

export class ReportableStudent {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() full_name!: string;
  @ApiProperty({ nullable: true, type: String }) customer_name!: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'From the one-page profile' }) year_group!:
    string | null;
}

export class ReportableStudentPage extends PageOf(ReportableStudent) {}
