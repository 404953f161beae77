import { Module } from '@nestjs/common';
import { IdentityModule } from '../identity/identity.module.js';
import { LessonsController } from './lessons.controller.js';
import { SchedulesController } from './schedules.controller.js';
import { TeacherTimetablesController, TimetableController } from './timetable.controller.js';
import { LessonsService } from './lessons.service.js';
import { TeachingReportsController } from './teaching-reports.controller.js';
import { LessonPlanner, LessonPlannerJob } from './lesson-planner.js';
import { LessonsSetup } from './lessons.setup.js';

/** The teaching reports under `api/v1/users`, in a module of their own imported before the users area (so `users/coms` is not a user id). */
@Module({ controllers: [TeachingReportsController] })
export class TeachingReportsModule {}

/** Schedules, the lesson planner, lessons and timetables (decision 0053). */
@Module({
  imports: [IdentityModule],
  controllers: [SchedulesController, LessonsController, TimetableController, TeacherTimetablesController],
  providers: [LessonsService, LessonPlanner, LessonPlannerJob, LessonsSetup],
  exports: [LessonPlanner],
})
export class LessonsModule {}
