import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import {
  ABSENCE_REASONS,
  ATTENDANCE_MARKS,
  type AbsenceReason,
  type AttendanceMark,
} from '@portal/projections';
import { IsCalendarDate, IsInstant } from '../platform/http/dates.js';
import { PageOf, PageQuery } from '../platform/http/paging.js';
import { asBoolean } from '../identity/csv/csv.dto.js';

/** The largest register one call takes (a group is far smaller; guests included). */
export const MAX_REGISTER_ENTRIES = 200;

export class RegisterQuery {
  @ApiPropertyOptional({ description: 'The register exactly as it stood at this instant (ISO 8601)' })
  @IsOptional()
  @IsInstant()
  as_at?: string;
}

export class MarkBody {
  @ApiProperty({ format: 'uuid' }) @IsUUID() student_id!: string;
  @ApiProperty({ enum: ATTENDANCE_MARKS }) @IsIn(ATTENDANCE_MARKS) mark!: AttendanceMark;
  @ApiPropertyOptional({ type: Number, nullable: true, description: 'For late: 1 to the lesson’s length' })
  @IsOptional()
  @IsInt()
  minutes_late?: number | null;
  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    description: 'For left_early: 1 to the lesson’s length',
  })
  @IsOptional()
  @IsInt()
  minutes_missed?: number | null;
  @ApiPropertyOptional({ enum: ABSENCE_REASONS, nullable: true, description: 'Required for absent' })
  @IsOptional()
  @IsIn(ABSENCE_REASONS)
  absence_reason?: AbsenceReason | null;
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'Why an existing mark changes (required for an amendment)',
  })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  reason?: string | null;
  @ApiPropertyOptional({
    description: 'Adds a student of the same school who is not in the lesson’s group (a guest)',
  })
  @IsOptional()
  @IsBoolean()
  guest?: boolean;
}

export class TakeRegisterBody {
  @ApiProperty({ description: 'Chosen by the client; sending the same key again changes nothing' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  client_key!: string;
  @ApiProperty({ type: [MarkBody] })
  @IsArray()
  @ArrayMaxSize(MAX_REGISTER_ENTRIES)
  @ValidateNested({ each: true })
  @Type(() => MarkBody)
  entries!: MarkBody[];
}

export class ReasonBody {
  @ApiProperty({ enum: ABSENCE_REASONS }) @IsIn(ABSENCE_REASONS) absence_reason!: AbsenceReason;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(1000) note?: string;
}

export class ActingPersonView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ description: 'Job title, or the partner’s relationship to the pupil' }) position!: string;
}

export class JoinSuggestionView {
  @ApiProperty({ enum: ['present', 'late'] }) mark!: string;
  @ApiProperty({ nullable: true, type: Number }) minutes_late!: number | null;
  @ApiProperty({ description: 'The student’s first join of the lesson’s meeting' }) joined_at!: string;
}

export class RegisterEntryView {
  @ApiProperty({ format: 'uuid' }) student_id!: string;
  @ApiProperty({ nullable: true, type: String }) student_name!: string | null;
  @ApiProperty({ enum: ['enrolled', 'guest'] }) basis!: string;
  @ApiProperty({ enum: ATTENDANCE_MARKS, nullable: true, description: 'null: not marked yet' })
  mark!: string | null;
  @ApiProperty({ nullable: true, type: Number }) minutes_late!: number | null;
  @ApiProperty({ nullable: true, type: Number }) minutes_missed!: number | null;
  @ApiProperty({ enum: ABSENCE_REASONS, nullable: true }) absence_reason!: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'DfE code suggested to the school' })
  suggested_code!: string | null;
  @ApiProperty({ nullable: true, enum: ['teacher', 'admin', 'partner', 'meeting', 'prefill'] })
  source!: string | null;
  @ApiProperty({ description: 'A mark a person recorded (not a prefill, not an unconfirmed automatic mark)' })
  confirmed!: boolean;
  @ApiProperty({ nullable: true, type: String }) recorded_at!: string | null;
  @ApiProperty({ nullable: true, type: ActingPersonView }) recorded_by!: ActingPersonView | null;
  @ApiProperty({
    nullable: true,
    type: JoinSuggestionView,
    description: 'What the meeting join suggests, while the student is not marked (the teacher confirms)',
  })
  suggestion!: JoinSuggestionView | null;
}

export class RegisterView {
  @ApiProperty({ format: 'uuid' }) lesson_id!: string;
  @ApiProperty({ nullable: true, type: String, description: 'null: not opened yet' }) opened_at!:
    string | null;
  @ApiProperty({ description: '60 minutes before the start' }) opens_at!: string;
  @ApiProperty({ nullable: true, type: String }) as_at!: string | null;
  @ApiProperty({ description: 'The lesson was cancelled after marks were taken' }) voided!: boolean;
  @ApiProperty({ description: 'Until when the lesson’s teacher may amend' }) teacher_amend_until!: string;
  @ApiProperty({ type: [RegisterEntryView] }) entries!: RegisterEntryView[];
}

export class RegisterWritten extends RegisterView {
  @ApiProperty() position!: string;
}

export class EntryValuesView {
  @ApiProperty({ enum: ATTENDANCE_MARKS }) mark!: string;
  @ApiProperty({ nullable: true, type: Number }) minutes_late!: number | null;
  @ApiProperty({ nullable: true, type: Number }) minutes_missed!: number | null;
  @ApiProperty({ nullable: true, type: String }) absence_reason!: string | null;
  @ApiProperty({ nullable: true, type: String }) suggested_code!: string | null;
}

export class AmendmentView {
  @ApiProperty({ format: 'uuid' }) student_id!: string;
  @ApiProperty({ nullable: true, type: String }) student_name!: string | null;
  @ApiProperty({ type: EntryValuesView, description: 'The entry before the amendment' })
  original!: EntryValuesView;
  @ApiProperty({ type: EntryValuesView }) amended!: EntryValuesView;
  @ApiProperty() reason!: string;
  @ApiProperty() amended_at!: string;
  @ApiProperty({ type: ActingPersonView }) amended_by!: ActingPersonView;
}

export class RegisterHistory {
  @ApiProperty({ type: [AmendmentView] }) items!: AmendmentView[];
}

export class PlannedAbsenceBody {
  @ApiProperty({ format: 'uuid' }) @IsUUID() student_id!: string;
  @ApiProperty({ example: '2026-12-01' }) @IsCalendarDate() from!: string;
  @ApiProperty({ example: '2026-12-03' }) @IsCalendarDate() to!: string;
  @ApiProperty({ enum: ABSENCE_REASONS }) @IsIn(ABSENCE_REASONS) absence_reason!: AbsenceReason;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(1000) note?: string;
}

export class PlannedAbsenceQuery extends PageQuery {
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUUID() student_id?: string;
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUUID() customer_id?: string;
  @ApiPropertyOptional({ description: 'Absences ending on or after this date' })
  @IsOptional()
  @IsCalendarDate()
  from?: string;
  @ApiPropertyOptional({ description: 'Absences starting on or before this date' })
  @IsOptional()
  @IsCalendarDate()
  to?: string;
}

export class PlannedAbsenceView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) student_id!: string;
  @ApiProperty({ nullable: true, type: String }) student_name!: string | null;
  @ApiProperty({ format: 'uuid' }) customer_id!: string;
  @ApiProperty() from!: string;
  @ApiProperty() to!: string;
  @ApiProperty({ enum: ABSENCE_REASONS }) absence_reason!: string;
  @ApiProperty({ nullable: true, type: String }) note!: string | null;
  @ApiProperty({ type: ActingPersonView }) recorded_by!: ActingPersonView;
  @ApiProperty() created_at!: string;
}

export class PlannedAbsencePage extends PageOf(PlannedAbsenceView) {}

export class CodesQuery {
  @ApiPropertyOptional({ description: 'The date the set is for (default: today)' })
  @IsOptional()
  @IsCalendarDate()
  date?: string;
}

export class AttendanceCodeView {
  @ApiProperty() code!: string;
  @ApiProperty() meaning!: string;
  @ApiProperty() category!: string;
}

export class AttendanceCodeSetView {
  @ApiProperty() version!: string;
  @ApiProperty() valid_from!: string;
  @ApiProperty({ nullable: true, type: String }) valid_until!: string | null;
  @ApiProperty({ type: [AttendanceCodeView] }) codes!: AttendanceCodeView[];
  @ApiProperty({
    description: 'Suggested code per mark',
    type: 'object',
    additionalProperties: { type: 'string' },
  })
  suggested_for_mark!: Record<string, string>;
  @ApiProperty({
    description: 'Suggested code per absence reason',
    type: 'object',
    additionalProperties: { type: 'string' },
  })
  suggested_for_reason!: Record<string, string>;
  @ApiProperty({ enum: ATTENDANCE_MARKS, isArray: true }) marks!: string[];
  @ApiProperty({ enum: ABSENCE_REASONS, isArray: true }) absence_reasons!: string[];
}

export class AttendanceListQuery extends PageQuery {
  @ApiPropertyOptional({ description: 'Lessons starting at or after this instant' })
  @IsOptional()
  @IsInstant()
  from?: string;
  @ApiPropertyOptional({ description: 'Lessons starting before this instant' })
  @IsOptional()
  @IsInstant()
  to?: string;
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUUID() customer_id?: string;
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUUID() programme_id?: string;
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUUID() group_id?: string;
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUUID() teacher_id?: string;
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUUID() student_id?: string;
}

export class TodayQuery {
  @ApiPropertyOptional({ description: 'The day (default: today in the zone)' })
  @IsOptional()
  @IsCalendarDate()
  date?: string;
  @ApiPropertyOptional({ description: 'Default Europe/London' }) @IsOptional() @IsString() timezone?: string;
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUUID() customer_id?: string;
}

export class LessonRegisterView {
  @ApiProperty({ format: 'uuid' }) lesson_id!: string;
  @ApiProperty({ nullable: true, type: String }) programme_title!: string | null;
  @ApiProperty({ nullable: true, type: String }) group_name!: string | null;
  @ApiProperty({ format: 'uuid' }) customer_id!: string;
  @ApiProperty({ nullable: true, type: String }) teacher_name!: string | null;
  @ApiProperty() starts_at!: string;
  @ApiProperty() ends_at!: string;
  @ApiProperty() local_date!: string;
  @ApiProperty() local_start!: string;
  @ApiProperty() timezone!: string;
  @ApiProperty({ enum: ['not_open', 'open', 'taken', 'voided'] }) register_state!: string;
  @ApiProperty() roster!: number;
  @ApiProperty() marked!: number;
  @ApiProperty({ description: 'Absent, reason not yet known' }) pending!: number;
}

export class AttendanceEntryView {
  @ApiProperty({ format: 'uuid' }) lesson_id!: string;
  @ApiProperty({ format: 'uuid' }) student_id!: string;
  @ApiProperty({ nullable: true, type: String }) student_name!: string | null;
  @ApiProperty({ format: 'uuid' }) customer_id!: string;
  @ApiProperty({ nullable: true, type: String }) programme_title!: string | null;
  @ApiProperty({ nullable: true, type: String }) group_name!: string | null;
  @ApiProperty({ nullable: true, type: String }) teacher_name!: string | null;
  @ApiProperty() starts_at!: string;
  @ApiProperty() local_date!: string;
  @ApiProperty() local_start!: string;
  @ApiProperty({ enum: ['AM', 'PM'], description: 'The school session half of the lesson’s start' })
  session!: string;
  @ApiProperty({ enum: ATTENDANCE_MARKS, nullable: true }) mark!: string | null;
  @ApiProperty({ nullable: true, type: Number }) minutes_late!: number | null;
  @ApiProperty({ nullable: true, type: Number }) minutes_missed!: number | null;
  @ApiProperty({ nullable: true, type: String }) absence_reason!: string | null;
  @ApiProperty({ nullable: true, type: String }) suggested_code!: string | null;
  @ApiProperty({ description: 'Absent and the reason is still missing' }) reason_missing!: boolean;
  @ApiProperty() amendments!: number;
}

export class AttendanceEntryPage extends PageOf(AttendanceEntryView) {}

export class TodayView {
  @ApiProperty() date!: string;
  @ApiProperty() timezone!: string;
  @ApiProperty({ type: [LessonRegisterView], description: 'The day’s lessons and their registers' })
  lessons!: LessonRegisterView[];
  @ApiProperty({ type: [AttendanceEntryView], description: 'Absences of the last 14 days with no reason' })
  absences_without_reason!: AttendanceEntryView[];
}

export class AttendanceReportQuery extends AttendanceListQuery {
  @ApiPropertyOptional({
    enum: ['all', 'week', 'month'],
    description: 'Rows per student and period (default all)',
  })
  @IsOptional()
  @IsIn(['all', 'week', 'month'])
  period?: 'all' | 'week' | 'month';
  @ApiPropertyOptional({ type: Boolean, description: 'true: the whole list as a CSV file' })
  @IsOptional()
  @Transform(asBoolean)
  @IsBoolean()
  as_csv?: boolean;
  @ApiPropertyOptional({ type: Boolean, description: 'true: the whole list as an .xlsx workbook' })
  @IsOptional()
  @Transform(asBoolean)
  @IsBoolean()
  as_excel?: boolean;
}

export class AttendanceSummaryView {
  @ApiProperty({ format: 'uuid', description: 'The programme (or group)' }) id!: string;
  @ApiProperty({ nullable: true, type: String }) name!: string | null;
  @ApiProperty({ format: 'uuid' }) student_id!: string;
  @ApiProperty({ nullable: true, type: String }) student_name!: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'First day of the week or month' })
  period_start!: string | null;
  @ApiProperty({ description: 'Marks that count (not "not required", not a failure on our side)' })
  possible!: number;
  @ApiProperty() attended!: number;
  @ApiProperty() late!: number;
  @ApiProperty() left_early!: number;
  @ApiProperty() absences!: number;
  @ApiProperty() absences_without_reason!: number;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'number' } })
  absences_by_reason!: Record<string, number>;
  @ApiProperty({ nullable: true, type: Number, description: 'attended / possible, 0–100, 1 decimal' })
  attendance_percent!: number | null;
  @ApiProperty() planned_minutes!: number;
  @ApiProperty() attended_minutes!: number;
  @ApiProperty({ nullable: true, type: Number }) minutes_percent!: number | null;
}

export class AttendanceSummaryPage extends PageOf(AttendanceSummaryView) {}

export class TutorComplianceView {
  @ApiProperty({ format: 'uuid' }) teacher_id!: string;
  @ApiProperty({ nullable: true, type: String }) teacher_name!: string | null;
  @ApiProperty({ description: 'Lessons that have ended' }) lessons!: number;
  @ApiProperty() registers_taken!: number;
  @ApiProperty({ description: 'Taken by the end of the next working day' }) taken_on_time!: number;
  @ApiProperty() not_taken!: number;
  @ApiProperty() amendments!: number;
  @ApiProperty({ description: 'Automatic marks from meeting joins not confirmed yet' })
  unconfirmed_auto_marks!: number;
}

export class TutorCompliancePage extends PageOf(TutorComplianceView) {}

export class DifferentClassView extends AttendanceEntryView {
  @ApiProperty({ nullable: true, type: String, description: 'The group the student belongs to' })
  home_group_name!: string | null;
}

export class DifferentClassPage extends PageOf(DifferentClassView) {}

export class SessionMarkView {
  @ApiProperty({ format: 'uuid' }) student_id!: string;
  @ApiProperty({ nullable: true, type: String }) student_name!: string | null;
  @ApiProperty({ format: 'uuid' }) customer_id!: string;
  @ApiProperty({ description: 'The school’s local date' }) session_date!: string;
  @ApiProperty({ enum: ['AM', 'PM'] }) session!: string;
  @ApiProperty({ format: 'uuid', description: 'The lesson the best mark is from' }) lesson_id!: string;
  @ApiProperty({ enum: ATTENDANCE_MARKS }) mark!: string;
  @ApiProperty({ nullable: true, type: String }) absence_reason!: string | null;
  @ApiProperty({ nullable: true, type: String }) suggested_code!: string | null;
  @ApiProperty() reason_missing!: boolean;
  @ApiProperty({ description: 'Lessons in the session' }) lessons!: number;
}

export class SessionMarkPage extends PageOf(SessionMarkView) {}

export class PartnerListQuery extends AttendanceListQuery {
  @ApiPropertyOptional({ type: Boolean, description: 'true: the whole list as a CSV file' })
  @IsOptional()
  @Transform(asBoolean)
  @IsBoolean()
  as_csv?: boolean;
  @ApiPropertyOptional({ type: Boolean, description: 'true: the whole list as an .xlsx workbook' })
  @IsOptional()
  @Transform(asBoolean)
  @IsBoolean()
  as_excel?: boolean;
}
