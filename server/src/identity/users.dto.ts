import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsCalendarDate, IsInstant } from '../platform/http/dates.js';
import { MAX_SEARCH_LENGTH, SearchPageQuery } from '../platform/http/paging.js';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsEmail,
  IsIn,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  IsTimeZone,
  IsUUID,
  Matches,
  MaxLength,
  MinLength,
  ValidateIf,
} from 'class-validator';
import { CUSTOMER_ROLES, USER_TYPES, type CustomerRole, type UserType } from './policy/policy.js';
import { USER_SORT_COLUMNS } from './users.read.js';
import { PageOf } from '../platform/http/paging.js';
import { PositionAnswer } from '../platform/http/written.js';
import { asArray } from '../platform/http/validation.js';

const PERMISSION_NAME = /^[A-Z][A-Z0-9_]*$/;
const definedOrNull = (key: string) => (o: Record<string, unknown>) =>
  o[key] !== undefined && o[key] !== null;
const defined = (key: string) => (o: Record<string, unknown>) => o[key] !== undefined;

export class CreateUserBody {
  @ApiProperty({ example: 'jo.bloggs@example.com' })
  @IsEmail()
  @MaxLength(320)
  email!: string;

  @ApiPropertyOptional({ description: 'Sign-in name; defaults to the e-mail address. Cannot change later.' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(320)
  login?: string;

  @ApiProperty() @IsString() @IsNotEmpty() @MaxLength(100) first_name!: string;
  @ApiProperty() @IsString() @IsNotEmpty() @MaxLength(100) last_name!: string;

  @ApiProperty({ enum: USER_TYPES })
  @IsIn(USER_TYPES)
  user_type!: UserType;

  @ApiPropertyOptional({ format: 'uuid', description: 'Required for partner and student users' })
  @IsOptional()
  @IsUUID()
  customer_id?: string;

  @ApiPropertyOptional({ enum: CUSTOMER_ROLES, description: 'Required for partner users' })
  @IsOptional()
  @IsIn(CUSTOMER_ROLES)
  customer_type?: CustomerRole;

  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUUID() network_id?: string;

  @ApiPropertyOptional({ example: 'Europe/London' }) @IsOptional() @IsTimeZone() timezone?: string;

  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(10_000) notes?: string;

  @ApiPropertyOptional({ type: [String], description: 'Extra permissions besides the type marker and role' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(500)
  @Matches(PERMISSION_NAME, { each: true })
  permissions?: string[];

  @ApiPropertyOptional({ format: 'password', minLength: 8 })
  @IsOptional()
  @IsString()
  @MinLength(8)
  @MaxLength(1024)
  password?: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { oneOf: [{ type: 'string' }, { type: 'number' }] },
    description: 'Custom field values by field id (GET /users/custom_fields); required fields must be given',
  })
  @IsOptional()
  @IsObject()
  custom_fields?: Record<string, unknown>;
}

export class UpdateUserBody {
  @ApiPropertyOptional()
  @ValidateIf(defined('first_name'))
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  first_name?: string;
  @ApiPropertyOptional()
  @ValidateIf(defined('last_name'))
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  last_name?: string;
  @ApiPropertyOptional() @ValidateIf(defined('email')) @IsEmail() @MaxLength(320) email?: string;

  @ApiPropertyOptional({
    nullable: true,
    type: String,
    description: 'null clears it (the default timezone applies)',
  })
  @ValidateIf(definedOrNull('timezone'))
  @IsTimeZone()
  timezone?: string | null;

  @ApiPropertyOptional({ nullable: true, type: String })
  @ValidateIf(definedOrNull('notes'))
  @IsString()
  @MaxLength(10_000)
  notes?: string | null;

  @ApiPropertyOptional({ nullable: true, format: 'uuid', type: String })
  @ValidateIf(definedOrNull('customer_id'))
  @IsUUID()
  customer_id?: string | null;

  @ApiPropertyOptional({ nullable: true, enum: CUSTOMER_ROLES })
  @ValidateIf(definedOrNull('customer_type'))
  @IsIn(CUSTOMER_ROLES)
  customer_type?: CustomerRole | null;

  @ApiPropertyOptional({ nullable: true, format: 'uuid', type: String })
  @ValidateIf(definedOrNull('network_id'))
  @IsUUID()
  network_id?: string | null;

  @ApiPropertyOptional({
    nullable: true,
    type: String,
    description: 'Staff job title (teachers and administrators); null clears it',
  })
  @ValidateIf(definedOrNull('position'))
  @IsString()
  @MaxLength(200)
  position?: string | null;

  @ApiPropertyOptional({
    format: 'password',
    minLength: 8,
    description: 'Sets a new password; ends all sessions',
  })
  @ValidateIf(defined('password'))
  @IsString()
  @MinLength(8)
  @MaxLength(1024)
  password?: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { oneOf: [{ type: 'string' }, { type: 'number' }] },
    description: 'Custom field values to set by field id; null removes one; fields not named stay',
  })
  @ValidateIf(defined('custom_fields'))
  @IsObject()
  custom_fields?: Record<string, unknown>;
}

export class ScheduleDeactivationBody {
  @ApiProperty({
    description: 'When access ends (ISO 8601 date or date-time, in the future)',
    example: '2030-07-31',
  })
  @IsInstant()
  date!: string;
}

export class QualityIssueBody {
  @ApiProperty() @IsString() @IsNotEmpty() @MaxLength(2000) reason!: string;
}

export class PermissionsBody {
  @ApiProperty({ type: [String], description: 'The complete permission list (the type marker must stay)' })
  @IsArray()
  @ArrayMaxSize(500)
  @Matches(PERMISSION_NAME, {
    each: true,
    message: 'each value in permissions must be an UPPER_SNAKE_CASE name',
  })
  permissions!: string[];
}

export class ContactBody {
  @ApiProperty() @IsString() @IsNotEmpty() @MaxLength(200) name!: string;
  @ApiPropertyOptional({ nullable: true, type: String })
  @ValidateIf(definedOrNull('email'))
  @IsEmail()
  email?: string | null;
  @ApiPropertyOptional({ nullable: true, type: String })
  @ValidateIf(definedOrNull('phone'))
  @IsString()
  @MaxLength(50)
  phone?: string | null;
  @ApiPropertyOptional({ nullable: true, type: String })
  @ValidateIf(definedOrNull('relationship'))
  @IsString()
  @MaxLength(100)
  relationship?: string | null;
  @ApiPropertyOptional({ nullable: true, type: String })
  @ValidateIf(definedOrNull('notes'))
  @IsString()
  @MaxLength(2000)
  notes?: string | null;
}

export const STATUS_FILTERS = ['active', 'inactive', 'deactivated'] as const;
export const TYPE_FILTERS = {
  students: 'student',
  teachers: 'teacher',
  partners: 'partner',
  admins: 'super_admin',
} as const;
export type TypeFilter = keyof typeof TYPE_FILTERS;
const SORTS = [...USER_SORT_COLUMNS, ...USER_SORT_COLUMNS.map((c) => `-${c}`)];

export class ListUsersQuery extends SearchPageQuery {
  @ApiPropertyOptional({
    description: 'Text searched in name, login and e-mail',
    maxLength: MAX_SEARCH_LENGTH,
  })
  override query?: string;
  @ApiPropertyOptional({ description: 'Accepted for compatibility (yyyy-MM-dd); not used by this list' })
  @IsOptional()
  @IsCalendarDate()
  week_start?: string;
  @ApiPropertyOptional({ enum: SORTS, description: 'Column, "-" prefix for descending' })
  @IsOptional()
  @IsIn(SORTS)
  sort_by?: string;
  @ApiPropertyOptional({ enum: STATUS_FILTERS, isArray: true, description: 'Repeat the key for several' })
  @IsOptional()
  @Transform(asArray)
  @IsIn(STATUS_FILTERS, { each: true })
  status?: (typeof STATUS_FILTERS)[number][];
  @ApiPropertyOptional({
    enum: Object.keys(TYPE_FILTERS),
    isArray: true,
    description: 'Repeat the key for several',
  })
  @IsOptional()
  @Transform(asArray)
  @IsIn(Object.keys(TYPE_FILTERS), { each: true })
  type?: TypeFilter[];
  @ApiPropertyOptional({
    enum: CUSTOMER_ROLES,
    isArray: true,
    description: 'Customer users of these roles only (repeat the key for several)',
  })
  @IsOptional()
  @Transform(asArray)
  @IsIn(CUSTOMER_ROLES, { each: true })
  customer_type?: CustomerRole[];
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUUID() customer_id?: string;
  @ApiPropertyOptional({ type: Boolean })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsBoolean()
  has_access?: boolean;
  @ApiPropertyOptional({
    type: Boolean,
    description:
      'Count every matching user. Without it a list stops counting past USER_LIST_COUNT_UP_TO users ' +
      '(or the end of the page asked for) and answers total_exact=false (decision 0069)',
  })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsBoolean()
  exact_total?: boolean;
}

export class UserCustomerView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ nullable: true, type: String }) name!: string | null;
}

export class UserOnePageProfileRef {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ minimum: 1, maximum: 100 }) progress!: number;
}

export class PositionResponse extends PositionAnswer {}

export class ContactView {
  @ApiProperty() id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ nullable: true, type: String }) email!: string | null;
  @ApiProperty({ nullable: true, type: String }) phone!: string | null;
  @ApiProperty({ nullable: true, type: String }) relationship!: string | null;
  @ApiProperty({ nullable: true, type: String }) notes!: string | null;
}

export class ContactCreatedResponse extends PositionResponse {
  @ApiProperty({ format: 'uuid' }) id!: string;
}

export class UserCreatedResponse extends PositionResponse {
  @ApiProperty({ format: 'uuid' }) id!: string;
}

export class CustomerProfileView {
  @ApiProperty({ nullable: true, enum: CUSTOMER_ROLES }) type!: string | null;
  @ApiProperty({ nullable: true, type: String }) type_label!: string | null;
}

export class TeacherProfileView {
  @ApiProperty() has_quality_issue!: boolean;
  @ApiProperty({ nullable: true, type: String }) quality_issue_reason!: string | null;
}

export class StudentFileView {
  @ApiProperty() id!: string;
  @ApiProperty({ description: 'Storage key; pass it to files-download-url' }) file_path!: string;
  @ApiProperty() file_name!: string;
  @ApiProperty({ enum: ['EHCP', 'OTHER'] }) file_type!: string;
  @ApiProperty() content_type!: string;
  @ApiProperty() size!: number;
  @ApiProperty() uploaded_at!: string;
  @ApiProperty({ nullable: true, type: String }) uploaded_by!: string | null;
}

export class StudentProfileView {
  @ApiProperty({ type: [StudentFileView] }) files!: StudentFileView[];
  @ApiProperty({ type: StudentFileView, nullable: true, description: 'Derived: the latest EHCP file' })
  latest_ehcp_file!: StudentFileView | null;
}

export class UserView {
  @ApiProperty() id!: string;
  @ApiProperty() login!: string;
  @ApiProperty() email!: string;
  @ApiProperty() first_name!: string;
  @ApiProperty() last_name!: string;
  @ApiProperty() full_name!: string;
  @ApiProperty({ enum: USER_TYPES }) user_type!: string;
  @ApiProperty() type_label!: string;
  @ApiProperty() is_teacher!: boolean;
  @ApiProperty({ nullable: true, type: String }) customer_id!: string | null;
  @ApiProperty({ nullable: true, type: String, description: "Derived: the first customer's name" })
  customer_name!: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    description: "Derived: a student's year group, from their one-page profile (null for others)",
  })
  year_group!: string | null;
  @ApiProperty({ type: [UserCustomerView] }) customers!: UserCustomerView[];
  @ApiProperty({
    nullable: true,
    type: UserOnePageProfileRef,
    description: 'Present only when the profile has an id and progress above 0',
  })
  one_page_profile!: UserOnePageProfileRef | null;
  @ApiProperty({ type: CustomerProfileView, nullable: true }) customer_profile!: CustomerProfileView | null;
  @ApiProperty({ type: TeacherProfileView, nullable: true }) teacher_profile!: TeacherProfileView | null;
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'Staff job title (teachers and administrators), shown on register amendments',
  })
  position!: string | null;
  @ApiProperty({ type: StudentProfileView, nullable: true }) student_profile!: StudentProfileView | null;
  @ApiProperty({ description: 'Personal data erased (DELETE /users/{id}/user_profile)' })
  personal_data_erased!: boolean;
  @ApiProperty({ nullable: true, type: String }) network_id!: string | null;
  @ApiProperty({ nullable: true, type: String }) active_network!: string | null;
  @ApiProperty() timezone!: string;
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'Staff notes: null for readers who may not see them (parents, students, teachers)',
  })
  notes!: string | null;
  @ApiProperty() has_access!: boolean;
  @ApiProperty() is_blocked!: boolean;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) scheduled_for_deactivation!:
    string | null;
  @ApiProperty({ enum: STATUS_FILTERS }) status!: string;
  @ApiProperty({ type: [String] }) permission_list!: string[];
  @ApiProperty({ type: [ContactView] }) contacts!: ContactView[];
  @ApiProperty({ description: 'Last activity, "N/A" if none' }) last_action!: string;
  @ApiProperty({ description: 'False until a user created without a password sets one (activation link)' })
  is_activated!: boolean;
  @ApiProperty({ nullable: true, type: String, example: '2012-09-30' }) birth_date!: string | null;
  @ApiProperty() receive_weekly_summary_reports!: boolean;
  @ApiProperty({ nullable: true, type: Number }) requested_number_of_lessons_per_week!: number | null;
  @ApiProperty({ nullable: true, type: String, description: 'Verified notification address' })
  notification_email!: string | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: { oneOf: [{ type: 'string' }, { type: 'number' }] },
    description: 'Custom field values by field id',
  })
  custom_fields!: Record<string, string | number>;
  @ApiProperty() created_at!: string;
  @ApiProperty() updated_at!: string;
}

export class UserPage extends PageOf(UserView) {
  @ApiProperty({
    description:
      'False when the list stopped counting (over USER_LIST_COUNT_UP_TO users, decision 0069): there are ' +
      'then at least `total` users; ask with exact_total=true for the exact number',
  })
  total_exact!: boolean;
}
