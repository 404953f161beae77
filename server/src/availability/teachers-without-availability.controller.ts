import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiProduces, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsOptional } from 'class-validator';
import type { Response } from 'express';
import { RequirePermissions } from '../platform/auth/public.decorator.js';
import { IsCalendarDate } from '../platform/http/dates.js';
import { MARKER_PERMISSIONS } from '../identity/policy/policy.js';
import { asBoolean } from '../identity/csv/csv.dto.js';
import { sendTable } from '../identity/csv/tabular.js';
import { checkWeek } from './availability.controller.js';
import { mondayOf } from './availability.decider.js';
import { TeachersWithoutAvailability } from './teachers-without-availability.read.js';

const ADMIN = MARKER_PERMISSIONS.admin;
const FILE_TYPES = ['text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'];

export class TeachersWithoutAvailabilityQuery {
  @ApiPropertyOptional({
    example: '2030-01-07',
    description: 'Monday (yyyy-MM-dd) of the week to check; default: this week (UTC)',
  })
  @IsOptional()
  @IsCalendarDate()
  week?: string;

  @ApiPropertyOptional({ type: Boolean })
  @IsOptional()
  @Transform(asBoolean)
  @IsBoolean()
  as_excel?: boolean;
}

export class TeacherWithoutAvailabilityView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() full_name!: string;
  @ApiProperty({ description: 'Has availability for other weeks, just not this one' })
  set_for_other_weeks!: boolean;
}

export class TeachersWithoutAvailabilityAnswer {
  @ApiProperty({ description: 'The Monday checked' }) week!: string;
  @ApiProperty() total!: number;
  @ApiProperty({ type: [TeacherWithoutAvailabilityView] }) items!: TeacherWithoutAvailabilityView[];
}

/** The availability report (spec §7 "Users": teachers without availability set), a CSV or .xlsx file. */
@ApiTags('users')
@Controller('api/v1/users')
export class TeachersWithoutAvailabilityController {
  constructor(private readonly withoutAvailability: TeachersWithoutAvailability) {}

  @Get('teachers_without_availability_set')
  @RequirePermissions(ADMIN)
  @ApiOkResponse({
    type: TeachersWithoutAvailabilityAnswer,
    description: 'The same teachers as the report, as JSON (the home page)',
  })
  async list(@Query() q: TeachersWithoutAvailabilityQuery): Promise<TeachersWithoutAvailabilityAnswer> {
    const week = checkWeek(q.week) ?? mondayOf(new Date());
    const rows = await this.withoutAvailability.forWeek(week);
    return {
      week,
      total: rows.length,
      items: rows.map((r) => ({
        id: r.id,
        full_name: `${r.first_name} ${r.last_name}`.trim(),
        set_for_other_weeks: r.has_availability_other_weeks,
      })),
    };
  }

  @Get('teachers_without_availability_set/report')
  @RequirePermissions(ADMIN)
  @ApiProduces(...FILE_TYPES)
  @ApiOkResponse({
    description:
      'Active teachers with no availability slot in the week (its own list, else the recurring one); CSV or .xlsx',
  })
  async teachersWithoutAvailability(@Query() q: TeachersWithoutAvailabilityQuery, @Res() res: Response) {
    const week = checkWeek(q.week) ?? mondayOf(new Date());
    const rows = await this.withoutAvailability.forWeek(week);
    const iso = (d: Date | null) => (d === null ? null : new Date(d).toISOString());
    await sendTable(res, {
      filename: `teachers-without-availability-${week}`,
      asExcel: q.as_excel ?? false,
      sheetName: 'Without availability',
      columns: [
        { header: 'id', value: (r) => r.id, width: 38 },
        { header: 'first_name', value: (r) => r.first_name },
        { header: 'last_name', value: (r) => r.last_name },
        { header: 'login', value: (r) => r.login, width: 30 },
        { header: 'email', value: (r) => r.email, width: 30 },
        { header: 'timezone', value: (r) => r.timezone },
        { header: 'week', value: () => week, width: 12 },
        { header: 'set_for_other_weeks', value: (r) => r.has_availability_other_weeks },
        { header: 'availability_updated_at', value: (r) => iso(r.availability_updated_at), width: 25 },
        { header: 'created_at', value: (r) => iso(r.created_at), width: 25 },
      ],
      rows,
    });
  }
}
