import { Module } from '@nestjs/common';
import { IdentityModule } from '../identity/identity.module.js';
import { LessonsService } from '../lessons/lessons.service.js';
import { CoverRequestsController } from './cover-requests.controller.js';
import { MeetingsController } from './meetings.controller.js';
import { CoverSetup } from './cover.setup.js';

/** Cover requests and meeting join (decision 0054). */
@Module({
  imports: [IdentityModule],
  controllers: [CoverRequestsController, MeetingsController],
  providers: [LessonsService, CoverSetup],
})
export class CoverModule {}
