import { Module } from '@nestjs/common';
import { IdentityModule } from '../identity/identity.module.js';
import { AttendanceController } from './attendance.controller.js';
import { AttendanceContactsController } from './attendance-contacts.controller.js';
import { AttendanceAlertMailJob } from './attendance-alerts.job.js';
import { PlannedAbsencesController } from './planned-absences.controller.js';
import { RegisterController } from './register.controller.js';
import { UserPerformanceController } from './user-performance.controller.js';
import { AttendanceService } from './attendance.service.js';
import { AttendanceSetup } from './attendance.setup.js';
import { AutoMarkJob } from './auto-mark.job.js';

/** Registers, the amendment ledger, planned absences and attendance lists (decision 0056). */
@Module({
  imports: [IdentityModule],
  controllers: [
    RegisterController,
    AttendanceController,
    PlannedAbsencesController,
    UserPerformanceController,
    AttendanceContactsController,
  ],
  providers: [AttendanceService, AttendanceSetup, AutoMarkJob, AttendanceAlertMailJob],
})
export class AttendanceModule {}
