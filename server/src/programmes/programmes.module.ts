import { Module } from '@nestjs/common';
import { IdentityModule } from '../identity/identity.module.js';
import { EnrolmentsController } from './enrolments.controller.js';
import { GroupsController } from './groups.controller.js';
import { ProgrammeAccess } from './programme-access.js';
import { ProgrammesController } from './programmes.controller.js';
import { ProgrammesSetup } from './programmes.setup.js';

/** Programmes, groups and enrolments (issue 15 items 3 and 4; docs/decisions/0051). */
@Module({
  imports: [IdentityModule],
  controllers: [ProgrammesController, GroupsController, EnrolmentsController],
  providers: [ProgrammeAccess, ProgrammesSetup],
})
export class ProgrammesModule {}
