import { Module } from '@nestjs/common';
import { IdentityModule } from '../identity/identity.module.js';
import { OnePageProfilesController } from './one-page-profiles.controller.js';
import { OnePageProfilesSetup } from './one-page-profiles.setup.js';

@Module({
  imports: [IdentityModule],
  controllers: [OnePageProfilesController],
  providers: [OnePageProfilesSetup],
})
export class OnePageProfilesModule {}
