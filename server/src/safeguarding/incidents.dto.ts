import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsISO8601,
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUUID,
  Max,
  MaxLength,
  Min,
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

const toArray = ({ value }: { value: unknown }): unknown =>
  value === undefined ? undefined : Array.isArray(value) ? value : [value];

export class ListIncidentsQuery {
  @ApiPropertyOptional({ default: 1 }) @IsOptional() @Type(() => Number) @IsInt() @Min(1) page?: number;
  @ApiPropertyOptional({ default: 50 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(500)
  size?: number;
  @ApiPropertyOptional({ enum: INCIDENT_STATUSES, isArray: true, description: 'Repeat the key for several' })
  @IsOptional()
  @Transform(toArray)
  @IsArray()
  @IsIn(INCIDENT_STATUSES, { each: true })
  status?: IncidentStatus[];
  @ApiPropertyOptional({ format: 'uuid', description: 'Incidents of this type' })
  @IsOptional()
  @IsUUID()
  type_id?: string;
  @ApiPropertyOptional({ enum: RISK_LEVELS, isArray: true })
  @IsOptional()
  @Transform(toArray)
  @IsArray()
  @IsIn(RISK_LEVELS, { each: true })
  risk_level?: RiskLevel[];
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUUID() student_id?: string;
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUUID() customer_id?: string;
  @ApiPropertyOptional({ description: 'Happened at or after (ISO 8601)' })
  @IsOptional()
  @IsISO8601()
  occurred_from?: string;
  @ApiPropertyOptional({ description: 'Happened before (ISO 8601)' })
  @IsOptional()
  @IsISO8601()
  occurred_to?: string;
}

export class PagingQuery {
  @ApiPropertyOptional({ default: 1 }) @IsOptional() @Type(() => Number) @IsInt() @Min(1) page?: number;
  @ApiPropertyOptional({ default: 50 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(500)
  size?: number;
}

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
  @IsISO8601({ strict: true })
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
  @IsISO8601({ strict: true })
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

export class IncidentView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ enum: INCIDENT_STATUSES }) status!: string;
  @ApiProperty({ enum: RISK_LEVELS }) risk_level!: string;
  @ApiProperty({ type: NamedRef }) reporter!: NamedRef;
  @ApiProperty({ type: [NamedRef] }) students!: NamedRef[];
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
  @ApiProperty({ type: 'array', items: { type: 'object' } }) actions!: unknown[];
  @ApiProperty({ type: 'array', items: { type: 'object' } }) partner_informed!: unknown[];
  @ApiProperty({ type: 'array', items: { type: 'object' } }) partner_feedback!: unknown[];
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

export class IncidentDetailsView extends IncidentView {
  @ApiProperty({ type: [ChronologyEntryView], description: "The incident's steps, by when they happened" })
  timeline!: ChronologyEntryView[];
}

export class IncidentPage extends PageOf(IncidentView) {}

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

export class ReportableStudentsQuery {
  @ApiPropertyOptional({ default: 1 }) @IsOptional() @Type(() => Number) @IsInt() @Min(1) page?: number;
  @ApiPropertyOptional({ default: 20 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  size?: number;
  @ApiPropertyOptional({ description: "Text searched in the student's name" })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  query?: string;
}

export class ReportableStudent {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() full_name!: string;
  @ApiProperty({ nullable: true, type: String }) customer_name!: string | null;
}

export class ReportableStudentPage extends PageOf(ReportableStudent) {}
