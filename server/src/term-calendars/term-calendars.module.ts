import { Module } from '@nestjs/common';
import { IdentityModule } from '../identity/identity.module.js';
import { TermCalendarsController } from './term-calendars.controller.js';
import { TermCalendarsSetup } from './term-calendars.setup.js';

/** Term calendars: terms and closure days per network or partner school (decision 0049). */
@Module({
  imports: [IdentityModule],
  controllers: [TermCalendarsController],
  providers: [TermCalendarsSetup],
})
export class TermCalendarsModule {}
