import { Module } from '@nestjs/common';
import { ACTOR_LOADER } from '../platform/auth/actor-loader.js';
import { Credentials } from './credentials.js';
import { FirstSuperuser } from './first-superuser.js';
import { LoginController } from './login.controller.js';
import { UsersReadModel } from './users.read.js';

@Module({
  controllers: [LoginController],
  providers: [
    Credentials,
    FirstSuperuser,
    UsersReadModel,
    { provide: ACTOR_LOADER, useExisting: UsersReadModel },
  ],
  exports: [FirstSuperuser, UsersReadModel, ACTOR_LOADER],
})
export class IdentityModule {}
