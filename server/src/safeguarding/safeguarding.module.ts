import { Module } from '@nestjs/common';
import { IdentityModule } from '../identity/identity.module.js';
import { EscalationScheduler } from './escalation.scheduler.js';
import { IncidentTypesController } from './incident-types.controller.js';
import { IncidentsController } from './incidents.controller.js';
import { IncidentsReadModel } from './incidents.read.js';
import { SafeguardingSetup } from './safeguarding.setup.js';
import { StudentLinks } from './student-links.js';

/** Safeguarding incidents end to end (issue 6): see docs/architecture.md, "Safeguarding". */
@Module({
  imports: [IdentityModule],
  controllers: [IncidentTypesController, IncidentsController],
  providers: [IncidentsReadModel, StudentLinks, SafeguardingSetup, EscalationScheduler],
  exports: [IncidentsReadModel],
})
export class SafeguardingModule {}
