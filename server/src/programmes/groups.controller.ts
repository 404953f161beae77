import { randomUUID } from 'node:crypto';
import { Body, Controller, Delete, Get, Inject, Param, Post, Put, Query, Req } from '@nestjs/common';
import { ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import {
  groupMembersWithNames,
  groupTeachersWithNames,
  listGroups,
  productMaxGroupSize,
  teacherCurrentStudents,
  visibleUserIds,
  yearGroupNamesOf,
  type GroupTeacher,
} from '@portal/projections';
import { Allow } from '../platform/auth/allow.decorator.js';
import { RequirePermissions } from '../platform/auth/public.decorator.js';
import {
  type Actor,
  type AuthenticatedRequest,
  CurrentActor,
  metadataFor,
} from '../platform/auth/request-context.js';
import { Commands } from '../platform/event-store/commands.js';
import { searchTextOf } from '../platform/http/paging.js';
import { UuidPipe } from '../platform/http/validation.js';
import { Written } from '../platform/http/written.js';
import type { SqlClient } from '../platform/sql/sql-client.js';
import { SQL_CLIENT } from '../platform/tokens.js';
import { INTERNAL_PERMISSIONS, MARKER_PERMISSIONS } from '../identity/policy/policy.js';
import { groupAggregate } from './group.decider.js';
import { ProgrammeAccess, todayIn } from './programme-access.js';
import {
  AddGroupStudentBody,
  CreateGroupBody,
  GroupPage,
  GroupView,
  ListGroupsQuery,
  RemoveGroupStudentQuery,
  SetGroupTeachersBody,
  TeacherStudentsView,
  UpdateGroupBody,
} from './programmes.dto.js';
import { memberScopeSql, ProgrammeRules, programmeScopeSql } from './programmes.policy.js';

const ADMIN = MARKER_PERMISSIONS.admin;
const MANAGE = INTERNAL_PERMISSIONS.PROGRAMME;
const READERS = [ADMIN, MARKER_PERMISSIONS.teacher, MARKER_PERMISSIONS.partner, MARKER_PERMISSIONS.student];

export class GroupWritten extends Written {}

const teachersOf = (body: { teacher_id: string; role: 'lead' | 'assistant' }[] = []): GroupTeacher[] =>
  body.map((t) => ({ teacherId: t.teacher_id, role: t.role }));

/**
 * Groups of a programme (issue 15 item 4): time-bound student membership ("moving a student never
 * rewrites the past": removing sets the last day, re-adding opens a new period) and lead/assistant
 * teachers. Visible to whoever sees the programme; partners see only the members in their student scope.
 */
@ApiTags('groups')
@Controller('api/v1/groups')
export class GroupsController {
  constructor(
    private readonly commands: Commands,
    @Inject(SQL_CLIENT) private readonly sql: SqlClient,
    private readonly access: ProgrammeAccess,
  ) {}

  @Get()
  @RequirePermissions(...READERS)
  @Allow(ProgrammeRules.read)
  @ApiOkResponse({ type: GroupPage })
  async list(@CurrentActor() actor: Actor, @Query() q: ListGroupsQuery): Promise<GroupPage> {
    const found = await listGroups(this.sql, {
      page: q.page,
      size: q.size,
      programmeId: q.programme_id,
      teacherId: q.teacher_id,
      studentId: q.student_id,
      text: searchTextOf(q),
      scope: (bind) => programmeScopeSql(actor, bind),
    });
    return {
      ...found,
      items: found.items.map((g) => ({
        id: g.id,
        programme_id: g.programme_id,
        programme_title: g.programme_title,
        customer_id: g.customer_id,
        name: g.name,
        archived: g.archived,
        student_count: Number(g.student_count),
        lead_teacher_id: g.lead_teacher_id,
        lead_teacher_name: g.lead_teacher_name,
      })),
    };
  }

  @Get('my-students')
  @RequirePermissions(MARKER_PERMISSIONS.teacher, ADMIN)
  @Allow(ProgrammeRules.read)
  @ApiOkResponse({
    type: TeacherStudentsView,
    description: "The caller's current students across their groups",
  })
  async myStudents(@CurrentActor() actor: Actor): Promise<TeacherStudentsView> {
    const rows = await teacherCurrentStudents(this.sql, actor.userId);
    const names = await yearGroupNamesOf(
      this.sql,
      rows.flatMap((r) => (r.year_group_id ? [r.year_group_id] : [])),
    );
    return {
      items: rows.map((r) => ({
        student_id: r.student_id,
        name: r.full_name,
        customer_id: r.customer_id,
        customer_name: r.customer_name,
        group_id: r.group_id,
        group_name: r.group_name,
        programme_id: r.programme_id,
        programme_title: r.programme_title,
        year_group_id: r.year_group_id,
        year_group_name: r.year_group_id ? (names.get(r.year_group_id) ?? null) : null,
        role: r.role,
        from: r.from_date,
        one_page_profile_id: r.one_page_profile_id,
      })),
    };
  }

  @Get(':id')
  @RequirePermissions(...READERS)
  @Allow(ProgrammeRules.read)
  @ApiOkResponse({ type: GroupView })
  @ApiNotFoundResponse({ description: 'Group not found' })
  async get(@CurrentActor() actor: Actor, @Param('id', UuidPipe) id: string): Promise<GroupView> {
    const { group, programme } = await this.access.visibleGroup(actor, id);
    const members = await groupMembersWithNames(this.sql, id);
    const visible = await visibleUserIds(
      this.sql,
      members.map((m) => m.student_id),
      (bind) => memberScopeSql(actor, bind),
    );
    const teachers = await groupTeachersWithNames(this.sql, id);
    return {
      id: group.id,
      programme_id: group.programme_id,
      programme_title: programme.title,
      customer_id: programme.customer_id,
      timezone: programme.timezone,
      name: group.name,
      archived: group.archived,
      students: members
        .filter((m) => visible.has(m.student_id))
        .map((m) => ({ student_id: m.student_id, name: m.full_name, from: m.from_date, to: m.to_date })),
      teachers: teachers.map((t) => ({ teacher_id: t.teacher_id, role: t.role, name: t.full_name })),
    };
  }

  @Post()
  @RequirePermissions(ADMIN, MANAGE)
  @Allow(ProgrammeRules.manage)
  @ApiCreatedResponse({ type: GroupWritten })
  async create(
    @Req() req: AuthenticatedRequest,
    @CurrentActor() actor: Actor,
    @Body() body: CreateGroupBody,
  ): Promise<GroupWritten> {
    const programme = await this.access.namedProgramme(actor, body.programme_id, 'programme_id');
    const teachers = teachersOf(body.teachers);
    await this.access.requireTeachers(teachers.map((t) => t.teacherId));
    const id = randomUUID();
    const { position } = await this.commands.run(
      groupAggregate,
      {
        type: 'CreateGroup',
        groupId: id,
        programmeId: programme.id,
        customerId: programme.customer_id,
        name: body.name.trim(),
        teachers,
        sourceGroupId: null,
      },
      metadataFor(req),
    );
    return { id, position };
  }

  @Put(':id')
  @RequirePermissions(ADMIN, MANAGE)
  @Allow(ProgrammeRules.manage)
  @ApiOkResponse({ type: GroupWritten })
  async update(
    @Req() req: AuthenticatedRequest,
    @CurrentActor() actor: Actor,
    @Param('id', UuidPipe) id: string,
    @Body() body: UpdateGroupBody,
  ): Promise<GroupWritten> {
    const { group } = await this.access.visibleGroup(actor, id);
    const { position } = await this.commands.run(
      groupAggregate,
      { type: 'RenameGroup', groupId: id, name: body.name?.trim() ?? group.name },
      metadataFor(req),
    );
    return { id, position };
  }

  @Post(':id/students')
  @RequirePermissions(ADMIN, MANAGE)
  @Allow(ProgrammeRules.manage)
  @ApiCreatedResponse({ type: GroupWritten })
  async addStudent(
    @Req() req: AuthenticatedRequest,
    @CurrentActor() actor: Actor,
    @Param('id', UuidPipe) id: string,
    @Body() body: AddGroupStudentBody,
  ): Promise<GroupWritten> {
    const { programme } = await this.access.visibleGroup(actor, id);
    await this.access.requireStudentOf(programme.customer_id, body.student_id);
    const { position } = await this.commands.run(
      groupAggregate,
      {
        type: 'AddStudent',
        groupId: id,
        studentId: body.student_id,
        from: body.from ?? todayIn(programme.timezone),
        maxGroupSize: await productMaxGroupSize(this.sql, programme.product_id),
      },
      metadataFor(req),
    );
    return { id, position };
  }

  @Delete(':id/students/:studentId')
  @RequirePermissions(ADMIN, MANAGE)
  @Allow(ProgrammeRules.manage)
  @ApiOkResponse({ type: GroupWritten })
  async removeStudent(
    @Req() req: AuthenticatedRequest,
    @CurrentActor() actor: Actor,
    @Param('id', UuidPipe) id: string,
    @Param('studentId', UuidPipe) studentId: string,
    @Query() q: RemoveGroupStudentQuery,
  ): Promise<GroupWritten> {
    const { programme } = await this.access.visibleGroup(actor, id);
    const { position } = await this.commands.run(
      groupAggregate,
      { type: 'RemoveStudent', groupId: id, studentId, to: q.to ?? todayIn(programme.timezone) },
      metadataFor(req),
    );
    return { id, position };
  }

  @Put(':id/teachers')
  @RequirePermissions(ADMIN, MANAGE)
  @Allow(ProgrammeRules.manage)
  @ApiOkResponse({ type: GroupWritten })
  async setTeachers(
    @Req() req: AuthenticatedRequest,
    @CurrentActor() actor: Actor,
    @Param('id', UuidPipe) id: string,
    @Body() body: SetGroupTeachersBody,
  ): Promise<GroupWritten> {
    await this.access.visibleGroup(actor, id);
    const teachers = teachersOf(body.teachers);
    await this.access.requireTeachers(teachers.map((t) => t.teacherId));
    const { position } = await this.commands.run(
      groupAggregate,
      { type: 'SetTeachers', groupId: id, teachers },
      metadataFor(req),
    );
    return { id, position };
  }
}
