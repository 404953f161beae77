import { Module } from '@nestjs/common';
import { ACTOR_LOADER } from '../platform/auth/actor-loader.js';
import { UserCommandHandler } from './commands/user-command.handler.js';
import { Credentials } from './credentials.js';
import { LoginThrottle } from './login-throttle.js';
import { DeactivationScheduler } from './deactivation.scheduler.js';
import { FirstSuperuser } from './first-superuser.js';
import { LoginController } from './login.controller.js';
import { UserAccess } from './user-access.js';
import { UserCreation } from './user-creation.js';
import { UsersController } from './users.controller.js';
import { AuditController } from './audit/audit.controller.js';
import { PasswordRecoveryController } from './password-recovery.controller.js';
import { TokenLinks } from './token-links.js';
import { MailOutboxController } from '../platform/mail/mail-outbox.controller.js';
import { UsersReadModel } from './users.read.js';
import { UserExportsController } from './csv/user-exports.controller.js';
import { UserImportsController } from './csv/user-imports.controller.js';
import { StudentContactsController } from './csv/student-contacts.controller.js';
import { StudentActivityReadModel } from './csv/student-activity.read.js';

@Module({
  // LoginController first: its GET users/me must be matched before UsersController's GET users/:id.
  // UserExportsController and UserImportsController (users/students/csv, users/import, ...) likewise.
  controllers: [
    LoginController,
    UserExportsController,
    UserImportsController,
    StudentContactsController,
    UsersController,
    AuditController,
    PasswordRecoveryController,
    MailOutboxController,
  ],
  providers: [
    Credentials,
    LoginThrottle,
    TokenLinks,
    FirstSuperuser,
    UsersReadModel,
    UserCommandHandler,
    UserAccess,
    UserCreation,
    StudentActivityReadModel,
    DeactivationScheduler,
    { provide: ACTOR_LOADER, useExisting: UsersReadModel },
  ],
  exports: [FirstSuperuser, UsersReadModel, ACTOR_LOADER, DeactivationScheduler],
})
export class IdentityModule {}
