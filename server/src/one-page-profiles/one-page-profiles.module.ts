import { Module } from '@nestjs/common';
import { IdentityModule } from '../identity/identity.module.js';
import { OnePageProfilesController } from './one-page-profiles.controller.js';

@Module({ imports: [IdentityModule], controllers: [OnePageProfilesController] })
export class OnePageProfilesModule {}
