import { Module } from '@nestjs/common';
import { IdentityModule } from '../identity/identity.module.js';
import { EscalationScheduler } from './escalation.scheduler.js';
import { FeedbackLinksController, FeedbackPublicController } from './feedback-links.controller.js';
import { FeedbackLinksService } from './feedback-links.service.js';
import { FeedbackTokens } from './feedback-tokens.js';
import { IncidentTypesController } from './incident-types.controller.js';
import { IncidentsController } from './incidents.controller.js';
import { IncidentsReadModel } from './incidents.read.js';
import { SafeguardingPresence } from './presence.service.js';
import { SafeguardingSetup } from './safeguarding.setup.js';
import { StudentLinks } from './student-links.js';

/** Safeguarding incidents end to end (issue 6): see docs/architecture.md, "Safeguarding". */
@Module({
  imports: [IdentityModule],
  controllers: [
    IncidentTypesController,
    IncidentsController,
    FeedbackLinksController,
    FeedbackPublicController,
  ],
  providers: [
    IncidentsReadModel,
    StudentLinks,
    SafeguardingSetup,
    SafeguardingPresence,
    EscalationScheduler,
    FeedbackTokens,
    FeedbackLinksService,
  ],
  exports: [IncidentsReadModel],
})
export class SafeguardingModule {}
