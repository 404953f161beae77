import { Module } from '@nestjs/common';
import { IdentityModule } from '../identity/identity.module.js';
import { AvailabilityController } from './availability.controller.js';
import { AvailabilitySetup } from './availability.setup.js';
import { TeachersWithoutAvailabilityController } from './teachers-without-availability.controller.js';
import { TeachersWithoutAvailability } from './teachers-without-availability.read.js';

/**
 * Availability (spec §7, decision 0017) and its report, teachers without availability: a domain on top
 * of identity (`UserAccess` decides whose availability a caller reaches).
 */
@Module({
  imports: [IdentityModule],
  controllers: [AvailabilityController, TeachersWithoutAvailabilityController],
  providers: [AvailabilitySetup, TeachersWithoutAvailability],
})
export class AvailabilityModule {}
