import { Module } from '@nestjs/common';
import { IdentityModule } from '../identity/identity.module.js';
import { LessonsController } from './lessons.controller.js';
import { SchedulesController } from './schedules.controller.js';
import { TeacherTimetablesController, TimetableController } from './timetable.controller.js';
import { LessonsService } from './lessons.service.js';
import { LessonPlanner, LessonPlannerJob } from './lesson-planner.js';
import { LessonsSetup } from './lessons.setup.js';

/** Schedules, the lesson planner, lessons and timetables (decision 0053). */
@Module({
  imports: [IdentityModule],
  controllers: [SchedulesController, LessonsController, TimetableController, TeacherTimetablesController],
  providers: [LessonsService, LessonPlanner, LessonPlannerJob, LessonsSetup],
  exports: [LessonPlanner],
})
export class LessonsModule {}
