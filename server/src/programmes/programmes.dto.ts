import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ENROLMENT_SORTS,
  ENROLMENT_STATUSES,
  GROUP_TEACHER_ROLES,
  PLACEMENT_REASONS,
  PLACEMENT_SETTINGS,
  PLACEMENT_TYPES,
  PROGRAMME_KINDS,
  PROGRAMME_SORTS,
  PROGRAMME_STATUSES,
} from '@portal/projections';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsNotEmpty,
  IsOptional,
  IsString,
  IsTimeZone,
  IsUUID,
  MaxLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { IsCalendarDate } from '../platform/http/dates.js';
import { PageOf, PageQuery, SearchPageQuery } from '../platform/http/paging.js';
import { Written } from '../platform/http/written.js';

const nullable = (field: string) => (o: Record<string, unknown>) => o[field] !== null;
const SORTS = [...PROGRAMME_SORTS, ...PROGRAMME_SORTS.map((s) => `-${s}`)];
const ENROLMENT_SORT_KEYS = [...ENROLMENT_SORTS, ...ENROLMENT_SORTS.map((s) => `-${s}`)];

// ------------------------------------------------------------------------------------------------
// Programmes

export class ListProgrammesQuery extends SearchPageQuery {
  @ApiPropertyOptional({ description: 'Text searched in the title', maxLength: 200 })
  declare query?: string;
  @ApiPropertyOptional({ enum: PROGRAMME_STATUSES }) @IsOptional() @IsIn(PROGRAMME_STATUSES) status?: string;
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUUID() customer_id?: string;
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUUID() product_id?: string;
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUUID() subject_id?: string;
  @ApiPropertyOptional({ format: 'uuid', description: 'Programmes with a group this teacher teaches' })
  @IsOptional()
  @IsUUID()
  teacher_id?: string;
  @ApiPropertyOptional({ enum: SORTS, description: 'Column, "-" prefix for descending' })
  @IsOptional()
  @IsIn(SORTS)
  sort_by?: string;
}

class ProgrammeFields {
  @ApiPropertyOptional({ format: 'uuid', nullable: true, type: String })
  @IsOptional()
  @ValidateIf(nullable('product_id'))
  @IsUUID()
  product_id?: string | null;
  @ApiPropertyOptional({ format: 'uuid', nullable: true, type: String })
  @IsOptional()
  @ValidateIf(nullable('subject_id'))
  @IsUUID()
  subject_id?: string | null;
  @ApiPropertyOptional({ format: 'uuid', nullable: true, type: String })
  @IsOptional()
  @ValidateIf(nullable('year_group_id'))
  @IsUUID()
  year_group_id?: string | null;
  @ApiPropertyOptional({ enum: PROGRAMME_KINDS })
  @IsOptional()
  @IsIn(PROGRAMME_KINDS)
  kind?: (typeof PROGRAMME_KINDS)[number];
  @ApiPropertyOptional({ example: '2026-09-07' }) @IsOptional() @IsCalendarDate() start_date?: string;
  @ApiPropertyOptional({ example: '2027-07-16', nullable: true, type: String })
  @IsOptional()
  @ValidateIf(nullable('end_date'))
  @IsCalendarDate()
  end_date?: string | null;
  @ApiPropertyOptional({
    example: 'Europe/London',
    description: "Default: the customer's network's time zone",
  })
  @IsOptional()
  @IsTimeZone()
  timezone?: string;
}

export class CreateProgrammeBody extends ProgrammeFields {
  @ApiPropertyOptional({ example: 'Maths GCSE recovery', description: 'Required unless copying' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  title?: string;
  @ApiPropertyOptional({ format: 'uuid', description: 'Required unless copying' })
  @IsOptional()
  @IsUUID()
  customer_id?: string;
  @ApiPropertyOptional({
    format: 'uuid',
    description:
      "Copy this programme (its fields, its groups' names and teachers, not students) into a new draft",
  })
  @IsOptional()
  @IsUUID()
  source_program_id?: string;
}

export class UpdateProgrammeBody extends ProgrammeFields {
  @ApiPropertyOptional() @IsOptional() @IsString() @IsNotEmpty() @MaxLength(200) title?: string;
}

export class ProgrammeStatusBody {
  @ApiPropertyOptional({ description: 'Why (kept with the event)' })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  reason?: string;
}

export class ProgrammeView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() title!: string;
  @ApiProperty({ format: 'uuid' }) customer_id!: string;
  @ApiProperty({ nullable: true, type: String }) customer_name!: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) network_id!: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) product_id!: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) subject_id!: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) year_group_id!: string | null;
  @ApiProperty({ enum: PROGRAMME_KINDS }) kind!: string;
  @ApiProperty({ example: '2026-09-07' }) start_date!: string;
  @ApiProperty({ nullable: true, type: String }) end_date!: string | null;
  @ApiProperty() timezone!: string;
  @ApiProperty({ enum: PROGRAMME_STATUSES }) status!: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) source_programme_id!: string | null;
  @ApiProperty({
    description: 'Status actions allowed now (activate, pause, resume, complete, cancel)',
    type: [String],
  })
  actions!: string[];
  @ApiProperty() created_at!: string;
  @ApiProperty() updated_at!: string;
}

export class ProgrammePage extends PageOf(ProgrammeView) {}

export class ProgrammeWritten extends Written {}

class StatusCount {
  @ApiProperty() status!: string;
  @ApiProperty() count!: number;
}
class ProductCount {
  @ApiProperty({ nullable: true, type: String }) product_id!: string | null;
  @ApiProperty() count!: number;
}
class CustomerCount {
  @ApiProperty() customer_id!: string;
  @ApiProperty({ nullable: true, type: String }) customer_name!: string | null;
  @ApiProperty() count!: number;
}

export class ProgrammeStatisticsView {
  @ApiProperty() total!: number;
  @ApiProperty({ type: [StatusCount] }) by_status!: StatusCount[];
  @ApiProperty({ type: [ProductCount] }) by_product!: ProductCount[];
  @ApiProperty({ type: [CustomerCount] }) by_customer!: CustomerCount[];
  @ApiProperty({ description: 'Distinct students with an open enrolment' }) students_enrolled!: number;
}

// ------------------------------------------------------------------------------------------------
// Groups

export class GroupTeacherBody {
  @ApiProperty({ format: 'uuid' }) @IsUUID() teacher_id!: string;
  @ApiProperty({ enum: GROUP_TEACHER_ROLES })
  @IsIn(GROUP_TEACHER_ROLES)
  role!: (typeof GROUP_TEACHER_ROLES)[number];
}

export class ListGroupsQuery extends SearchPageQuery {
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUUID() programme_id?: string;
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUUID() teacher_id?: string;
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUUID() student_id?: string;
}

export class CreateGroupBody {
  @ApiProperty({ format: 'uuid' }) @IsUUID() programme_id!: string;
  @ApiProperty({ example: 'Group A' }) @IsString() @IsNotEmpty() @MaxLength(200) name!: string;
  @ApiPropertyOptional({ type: [GroupTeacherBody] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @ValidateNested({ each: true })
  @Type(() => GroupTeacherBody)
  teachers?: GroupTeacherBody[];
}

export class UpdateGroupBody {
  @ApiPropertyOptional() @IsOptional() @IsString() @IsNotEmpty() @MaxLength(200) name?: string;
}

export class AddGroupStudentBody {
  @ApiProperty({ format: 'uuid' }) @IsUUID() student_id!: string;
  @ApiPropertyOptional({ description: "First day (yyyy-MM-dd); default today in the programme's time zone" })
  @IsOptional()
  @IsCalendarDate()
  from?: string;
}

export class RemoveGroupStudentQuery {
  @ApiPropertyOptional({
    description: "Last day, inclusive (yyyy-MM-dd); default today in the programme's time zone",
  })
  @IsOptional()
  @IsCalendarDate()
  to?: string;
}

export class SetGroupTeachersBody {
  @ApiProperty({ type: [GroupTeacherBody] })
  @IsArray()
  @ArrayMaxSize(20)
  @ValidateNested({ each: true })
  @Type(() => GroupTeacherBody)
  teachers!: GroupTeacherBody[];
}

export class GroupStudentView {
  @ApiProperty({ format: 'uuid' }) student_id!: string;
  @ApiProperty({ nullable: true, type: String }) name!: string | null;
  @ApiProperty({ example: '2026-09-07' }) from!: string;
  @ApiProperty({ nullable: true, type: String, description: 'Last day, inclusive; null while a member' })
  to!: string | null;
}

export class GroupTeacherView {
  @ApiProperty({ format: 'uuid' }) teacher_id!: string;
  @ApiProperty({ enum: GROUP_TEACHER_ROLES }) role!: string;
  @ApiProperty({ nullable: true, type: String }) name!: string | null;
}

export class GroupView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) programme_id!: string;
  @ApiProperty() programme_title!: string;
  @ApiProperty({ format: 'uuid' }) customer_id!: string;
  @ApiProperty() timezone!: string;
  @ApiProperty() name!: string;
  @ApiProperty() archived!: boolean;
  @ApiProperty({ type: [GroupStudentView], description: 'Every membership period, past ones included' })
  students!: GroupStudentView[];
  @ApiProperty({ type: [GroupTeacherView] }) teachers!: GroupTeacherView[];
}

export class GroupListItem {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) programme_id!: string;
  @ApiProperty() programme_title!: string;
  @ApiProperty({ format: 'uuid' }) customer_id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() archived!: boolean;
  @ApiProperty({ description: 'Members today' }) student_count!: number;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) lead_teacher_id!: string | null;
  @ApiProperty({ nullable: true, type: String }) lead_teacher_name!: string | null;
}

export class GroupPage extends PageOf(GroupListItem) {}

export class TeacherStudentView {
  @ApiProperty({ format: 'uuid' }) student_id!: string;
  @ApiProperty({ nullable: true, type: String }) name!: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) customer_id!: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'The school' }) customer_name!: string | null;
  @ApiProperty({ format: 'uuid' }) group_id!: string;
  @ApiProperty() group_name!: string;
  @ApiProperty({ format: 'uuid' }) programme_id!: string;
  @ApiProperty() programme_title!: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) year_group_id!: string | null;
  @ApiProperty({ nullable: true, type: String }) year_group_name!: string | null;
  @ApiProperty() role!: string;
  @ApiProperty() from!: string;
  @ApiProperty({
    nullable: true,
    type: String,
    format: 'uuid',
    description: 'The student’s one-page profile (teachers may read it)',
  })
  one_page_profile_id!: string | null;
}

export class TeacherStudentsView {
  @ApiProperty({ type: [TeacherStudentView] }) items!: TeacherStudentView[];
}

// ------------------------------------------------------------------------------------------------
// Enrolments

export class ListEnrolmentsQuery extends PageQuery {
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUUID() student_id?: string;
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUUID() programme_id?: string;
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUUID() customer_id?: string;
  @ApiPropertyOptional({ enum: ENROLMENT_STATUSES }) @IsOptional() @IsIn(ENROLMENT_STATUSES) status?: string;
  @ApiPropertyOptional({ enum: ENROLMENT_SORT_KEYS, description: 'Column, "-" prefix for descending' })
  @IsOptional()
  @IsIn(ENROLMENT_SORT_KEYS)
  sort_by?: string;
}

class EnrolmentFields {
  @ApiPropertyOptional({ example: '2026-09-07' }) @IsOptional() @IsCalendarDate() start_date?: string;
  @ApiPropertyOptional({ nullable: true, type: String })
  @IsOptional()
  @ValidateIf(nullable('end_date'))
  @IsCalendarDate()
  end_date?: string | null;
  @ApiPropertyOptional({ enum: PLACEMENT_TYPES, default: 'NOT_SET' })
  @IsOptional()
  @IsIn(PLACEMENT_TYPES)
  placement_type?: (typeof PLACEMENT_TYPES)[number];
  @ApiPropertyOptional({ enum: PLACEMENT_SETTINGS, default: 'NOT_SET' })
  @IsOptional()
  @IsIn(PLACEMENT_SETTINGS)
  setting?: (typeof PLACEMENT_SETTINGS)[number];
  @ApiPropertyOptional({ enum: PLACEMENT_REASONS, default: 'NOT_SET' })
  @IsOptional()
  @IsIn(PLACEMENT_REASONS)
  reason_for_placement?: (typeof PLACEMENT_REASONS)[number];
}

export class CreateEnrolmentBody extends EnrolmentFields {
  @ApiProperty({ format: 'uuid' }) @IsUUID() student_id!: string;
  @ApiProperty({ format: 'uuid' }) @IsUUID() programme_id!: string;
  @ApiPropertyOptional({ enum: ['requested', 'active'], default: 'active' })
  @IsOptional()
  @IsIn(['requested', 'active'])
  status?: 'requested' | 'active';
}

export class UpdateEnrolmentBody extends EnrolmentFields {
  @ApiPropertyOptional({ enum: ['requested', 'active', 'paused'] })
  @IsOptional()
  @IsIn(['requested', 'active', 'paused'])
  status?: 'requested' | 'active' | 'paused';
}

export class WithdrawEnrolmentBody {
  @ApiProperty({ example: 'Moved to a new school' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(1000)
  reason!: string;
  @ApiPropertyOptional({ description: "Last day (yyyy-MM-dd); default today in the programme's time zone" })
  @IsOptional()
  @IsCalendarDate()
  on?: string;
}

export class EndEnrolmentBody {
  @ApiPropertyOptional({ description: 'Last day (yyyy-MM-dd); default the end date, else today' })
  @IsOptional()
  @IsCalendarDate()
  on?: string;
}

export class EnrolmentView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) student_id!: string;
  @ApiProperty({ nullable: true, type: String }) student_name!: string | null;
  @ApiProperty({ format: 'uuid' }) programme_id!: string;
  @ApiProperty({ nullable: true, type: String }) programme_title!: string | null;
  @ApiProperty({ format: 'uuid' }) customer_id!: string;
  @ApiProperty({ nullable: true, type: String }) customer_name!: string | null;
  @ApiProperty() start_date!: string;
  @ApiProperty({ nullable: true, type: String }) end_date!: string | null;
  @ApiProperty({ enum: ENROLMENT_STATUSES }) status!: string;
  @ApiProperty({ enum: PLACEMENT_TYPES }) placement_type!: string;
  @ApiProperty({ enum: PLACEMENT_SETTINGS }) setting!: string;
  @ApiProperty({ enum: PLACEMENT_REASONS }) reason_for_placement!: string;
  @ApiProperty({ nullable: true, type: String }) withdrawal_reason!: string | null;
}

export class EnrolmentPage extends PageOf(EnrolmentView) {}
