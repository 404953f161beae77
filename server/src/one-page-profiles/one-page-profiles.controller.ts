import { Body, Controller, Get, HttpStatus, Inject, Param, Post, Put, Query, Req } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiProperty,
  ApiPropertyOptional,
  ApiTags,
  PartialType,
} from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsInt,
  IsOptional,
  IsString,
  IsUUID,
  Max,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';
import {
  type OnePageProfileFields,
  filters,
  listOnePageProfiles,
  onePageProfileById,
  teacherHasStudentNow,
  type OnePageProfileWithStudent,
  type UserRow,
} from '@portal/projections';
import { RequirePermissions } from '../platform/auth/public.decorator.js';
import {
  type Actor,
  type AuthenticatedRequest,
  metadataFor,
  actorOf,
} from '../platform/auth/request-context.js';
import { Commands } from '../platform/event-store/commands.js';
import { Problem } from '../platform/http/problem.js';
import type { SqlClient } from '../platform/sql/sql-client.js';
import { SQL_CLIENT } from '../platform/tokens.js';
import { PORTAL_NAMESPACE, uuidV5 } from '../platform/uuid.js';
import { MARKER_PERMISSIONS, isAdmin, isInternal, mayReadStaffNotes } from '../identity/policy/policy.js';
import { studentScope, studentScopeSql } from '../core/access/student-scope.js';
import { UserAccess } from '../identity/user-access.js';
import { onePageProfileAggregate } from './one-page-profile.decider.js';
import { SearchPageQuery, PageOf, searchTextOf } from '../platform/http/paging.js';
import { UuidPipe } from '../platform/http/validation.js';
import { Written } from '../platform/http/written.js';

const nullable = (key: string) => ValidateIf((o: Record<string, unknown>) => o[key] !== null);
const TEXT = 5_000;

export class OnePageProfileBody {
  @ApiPropertyOptional({ format: 'uuid', nullable: true, type: String })
  @IsOptional()
  @nullable('year_group_id')
  @IsUUID()
  year_group_id?: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, example: 'Year 9' })
  @IsOptional()
  @nullable('year_group')
  @IsString()
  @MaxLength(100)
  year_group?: string | null;
  @ApiPropertyOptional({ nullable: true, type: String })
  @IsOptional()
  @nullable('preferred_name')
  @IsString()
  @MaxLength(100)
  preferred_name?: string | null;
  @ApiPropertyOptional({ nullable: true, type: Number, minimum: 3, maximum: 30 })
  @IsOptional()
  @nullable('age')
  @IsInt()
  @Min(3)
  @Max(30)
  age?: number | null;
  @ApiPropertyOptional({ nullable: true, type: String })
  @IsOptional()
  @nullable('liked_about_me')
  @IsString()
  @MaxLength(TEXT)
  liked_about_me?: string | null;
  @ApiPropertyOptional({ nullable: true, type: String })
  @IsOptional()
  @nullable('important_to_me')
  @IsString()
  @MaxLength(TEXT)
  important_to_me?: string | null;
  @ApiPropertyOptional({ nullable: true, type: String })
  @IsOptional()
  @nullable('support_methods')
  @IsString()
  @MaxLength(TEXT)
  support_methods?: string | null;
  @ApiPropertyOptional({ type: [String] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @MaxLength(100, { each: true })
  favourite_subjects?: string[];
  @ApiPropertyOptional({ type: [String] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @MaxLength(100, { each: true })
  least_favourite_subjects?: string[];
  @ApiPropertyOptional({ nullable: true, type: String })
  @IsOptional()
  @nullable('hobbies')
  @IsString()
  @MaxLength(TEXT)
  hobbies?: string | null;
  @ApiPropertyOptional({ nullable: true, type: String })
  @IsOptional()
  @nullable('career_aspirations')
  @IsString()
  @MaxLength(TEXT)
  career_aspirations?: string | null;
  @ApiPropertyOptional({ nullable: true, type: String })
  @IsOptional()
  @nullable('notes')
  @IsString()
  @MaxLength(TEXT)
  notes?: string | null;
  @ApiPropertyOptional({ minimum: 0, maximum: 100, description: 'How complete the profile is, 0 to 100' })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(100)
  progress?: number;
}

export class CreateOnePageProfileBody extends OnePageProfileBody {
  @ApiProperty({ format: 'uuid', description: 'The student' }) @IsUUID() user_id!: string;
}

export class UpdateOnePageProfileBody extends PartialType(OnePageProfileBody) {}

export class ListOnePageProfilesQuery extends SearchPageQuery {
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUUID() customer_id?: string;
}

export class OnePageProfileUser {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() first_name!: string;
  @ApiProperty() last_name!: string;
  @ApiProperty() full_name!: string;
  @ApiProperty({ nullable: true, type: String }) customer_id!: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'The student’s school' }) customer_name!:
    string | null;
}

export class OnePageProfileView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiPropertyOptional({
    description:
      'On the detail: whether the reader may change it (teachers read their students’ profiles only)',
  })
  can_edit?: boolean;
  @ApiProperty({ format: 'uuid' }) user_id!: string;
  @ApiProperty({ nullable: true, type: String }) year_group_id!: string | null;
  @ApiProperty({ nullable: true, type: String }) year_group!: string | null;
  @ApiProperty({ nullable: true, type: String }) preferred_name!: string | null;
  @ApiProperty({ nullable: true, type: Number }) age!: number | null;
  @ApiProperty({ nullable: true, type: String }) liked_about_me!: string | null;
  @ApiProperty({ nullable: true, type: String }) important_to_me!: string | null;
  @ApiProperty({ nullable: true, type: String }) support_methods!: string | null;
  @ApiProperty({ type: [String] }) favourite_subjects!: string[];
  @ApiProperty({ type: [String] }) least_favourite_subjects!: string[];
  @ApiProperty({ nullable: true, type: String }) hobbies!: string | null;
  @ApiProperty({ nullable: true, type: String }) career_aspirations!: string | null;
  @ApiProperty({ nullable: true, type: String }) notes!: string | null;
  @ApiProperty({ minimum: 0, maximum: 100 }) progress!: number;
  @ApiProperty() created_at!: string;
  @ApiProperty() updated_at!: string;
  @ApiProperty({ type: OnePageProfileUser }) user!: OnePageProfileUser;
}

export class OnePageProfilePage extends PageOf(OnePageProfileView) {}

export class OnePageProfileWritten extends Written {}

type JoinedRow = OnePageProfileWithStudent;

/** `notes`: whether the reader may see staff notes (not parents: spec §6, decision 0037). */
const view = (r: JoinedRow, reader: Pick<Actor, 'permissions' | 'customerType'>): OnePageProfileView => ({
  id: r.id,
  user_id: r.user_id,
  year_group_id: r.year_group_id,
  year_group: r.year_group,
  preferred_name: r.preferred_name,
  age: r.age,
  liked_about_me: r.liked_about_me,
  important_to_me: r.important_to_me,
  support_methods: r.support_methods,
  favourite_subjects: r.favourite_subjects,
  least_favourite_subjects: r.least_favourite_subjects,
  hobbies: r.hobbies,
  career_aspirations: r.career_aspirations,
  notes: mayReadStaffNotes(reader) ? r.notes : null,
  progress: r.progress,
  created_at: new Date(r.created_at).toISOString(),
  updated_at: new Date(r.updated_at).toISOString(),
  user: {
    id: r.user_id,
    first_name: r.first_name,
    last_name: r.last_name,
    full_name: r.full_name,
    customer_id: r.customer_id,
    customer_name: r.customer_name,
  },
});

function fieldsOf(body: OnePageProfileBody): Partial<OnePageProfileFields> {
  return {
    yearGroupId: body.year_group_id,
    yearGroup: body.year_group,
    preferredName: body.preferred_name,
    age: body.age,
    likedAboutMe: body.liked_about_me,
    importantToMe: body.important_to_me,
    supportMethods: body.support_methods,
    favouriteSubjects: body.favourite_subjects,
    leastFavouriteSubjects: body.least_favourite_subjects,
    hobbies: body.hobbies,
    careerAspirations: body.career_aspirations,
    notes: body.notes,
    progress: body.progress,
  };
}

const notFound = () => new Problem(HttpStatus.NOT_FOUND, 'One-page profile not found');

/**
 * Students' one-page profiles (spec §3, routes users/one-page-profiles and one-page-profiles/:id/details).
 * Administrators see and edit all; partners see those of their own customer's students when their
 * permissions show students, and edit them with the permission to edit students.
 */
@ApiTags('one-page-profiles')
@Controller('api/v1/one-page-profiles')
export class OnePageProfilesController {
  constructor(
    private readonly commands: Commands,
    @Inject(SQL_CLIENT) private readonly sql: SqlClient,
    private readonly access: UserAccess,
  ) {}

  @Get()
  @RequirePermissions(MARKER_PERMISSIONS.admin, MARKER_PERMISSIONS.partner)
  @ApiOkResponse({ type: OnePageProfilePage })
  async list(
    @Req() req: AuthenticatedRequest,
    @Query() q: ListOnePageProfilesQuery,
  ): Promise<OnePageProfilePage> {
    const actor = actorOf(req);
    // Own customer; without SEE_ALL_STUDENTS_DETAILS only the students linked to them (decision 0034).
    const students = studentScope(actor);
    const scope = filters();
    scope.rawIf(
      !students.all,
      (bind) => studentScopeSql(students, bind, { id: 'u.id', customerId: 'u.customer_id' }) ?? 'true',
    );
    const found = await listOnePageProfiles(
      this.sql,
      { ...q, text: searchTextOf(q), customerId: q.customer_id },
      scope,
    );
    return { ...found, items: found.items.map((r) => view(r, actor)) };
  }

  /**
   * One profile. Teachers (issue 18: "how best to support me") read, never edit, the profiles of the
   * students currently in a group they teach; any other profile is a 404 to them.
   */
  @Get(':id')
  @RequirePermissions(MARKER_PERMISSIONS.admin, MARKER_PERMISSIONS.partner, MARKER_PERMISSIONS.teacher)
  @ApiOkResponse({ type: OnePageProfileView })
  @ApiNotFoundResponse({ description: 'One-page profile not found' })
  async get(
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
  ): Promise<OnePageProfileView> {
    const row = await this.byId(id);
    const reader = actorOf(req);
    if (isInternal(reader.permissions) && !isAdmin(reader.permissions)) {
      if (!(await teacherHasStudentNow(this.sql, reader.userId, row.user_id))) throw notFound();
      return { ...view(row, reader), can_edit: false };
    }
    const { actor, student } = await this.visibleStudent(req, row.user_id);
    let canEdit = true;
    try {
      this.access.authorize(actor, student, 'edit');
    } catch {
      canEdit = false;
    }
    return { ...view(row, actor), can_edit: canEdit };
  }

  @Post()
  @RequirePermissions(MARKER_PERMISSIONS.admin, MARKER_PERMISSIONS.partner)
  @ApiCreatedResponse({ type: OnePageProfileWritten })
  @ApiConflictResponse({ description: 'This student already has a one-page profile' })
  async create(
    @Req() req: AuthenticatedRequest,
    @Body() body: CreateOnePageProfileBody,
  ): Promise<OnePageProfileWritten> {
    const student = await this.editableStudent(req, body.user_id);
    const profileId = uuidV5(`one-page-profile:${student.id}`, PORTAL_NAMESPACE);
    const changes = fieldsOf(body);
    const fields: OnePageProfileFields = {
      yearGroupId: changes.yearGroupId ?? null,
      yearGroup: changes.yearGroup ?? null,
      preferredName: changes.preferredName ?? null,
      age: changes.age ?? null,
      likedAboutMe: changes.likedAboutMe ?? null,
      importantToMe: changes.importantToMe ?? null,
      supportMethods: changes.supportMethods ?? null,
      favouriteSubjects: changes.favouriteSubjects ?? [],
      leastFavouriteSubjects: changes.leastFavouriteSubjects ?? [],
      hobbies: changes.hobbies ?? null,
      careerAspirations: changes.careerAspirations ?? null,
      notes: changes.notes ?? null,
      progress: changes.progress ?? 0,
    };
    const { position } = await this.commands.run(
      onePageProfileAggregate,
      {
        type: 'CreateOnePageProfile',
        profileId,
        userId: student.id,
        fields,
      },
      metadataFor(req),
    );
    return { id: profileId, position };
  }

  @Put(':id')
  @RequirePermissions(MARKER_PERMISSIONS.admin, MARKER_PERMISSIONS.partner)
  @ApiOkResponse({ type: OnePageProfileWritten })
  @ApiNotFoundResponse({ description: 'One-page profile not found' })
  async update(
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
    @Body() body: UpdateOnePageProfileBody,
  ): Promise<OnePageProfileWritten> {
    const row = await this.byId(id);
    const student = await this.editableStudent(req, row.user_id);
    const { position } = await this.commands.run(
      onePageProfileAggregate,
      {
        type: 'UpdateOnePageProfile',
        userId: student.id,
        changes: fieldsOf(body),
      },
      metadataFor(req),
    );
    return { id, position };
  }

  private async byId(id: string): Promise<JoinedRow> {
    const row = await onePageProfileById(this.sql, id);
    if (!row) throw notFound();
    return row;
  }

  private async visibleStudent(req: AuthenticatedRequest, userId: string) {
    const actor = actorOf(req);
    try {
      return { actor, student: await this.access.visibleTarget(actor, userId) };
    } catch {
      throw notFound();
    }
  }

  private async editableStudent(req: AuthenticatedRequest, userId: string): Promise<UserRow> {
    const actor = actorOf(req);
    const student = await this.access.visibleTarget(actor, userId);
    if (student.user_type !== 'student')
      throw new Problem(HttpStatus.UNPROCESSABLE_ENTITY, 'user_id: one-page profiles are for students only');
    this.access.authorize(actor, student, 'edit');
    return student;
  }
}
