import { Module } from '@nestjs/common';
import { ACTOR_LOADER } from '../platform/auth/actor-loader.js';
import { UserCommands } from './commands/user-command.handler.js';
import { Credentials } from './credentials.js';
import { LoginThrottle } from './login-throttle.js';
import { MailThrottle } from './mail-throttle.js';
import { DeactivationScheduler } from './deactivation.scheduler.js';
import { FirstSuperuser } from './first-superuser.js';
import { LoginController } from './login.controller.js';
import { UserAccess } from './user-access.js';
import { UserCreation } from './user-creation.js';
import { UsersController } from './users.controller.js';
import { StudentFilesController } from './student-files.controller.js';
import { UserDeletionController } from './user-deletion.controller.js';
import { AuditController } from './audit/audit.controller.js';
import { PasswordRecoveryController } from './password-recovery.controller.js';
import { TokenLinks } from './token-links.js';
import { MailOutboxController } from '../platform/mail/mail-outbox.controller.js';
import { UsersReadModel } from './users.read.js';
import { StudentLinksReadModel } from './relations/student-links.read.js';
import { StudentLinksController } from './relations/student-links.controller.js';
import { UserExportsController } from './csv/user-exports.controller.js';
import { UserImportsController } from './csv/user-imports.controller.js';
import { StudentContactsController } from './csv/student-contacts.controller.js';
import { StudentActivityReadModel } from './csv/student-activity.read.js';

import { TokenLinkFlow } from './token-link-flow.js';
import {
  AccountActivation,
  ActivationController,
  ActivationLinksController,
} from './activation.controller.js';
import { CurrentUserController } from './current-user.controller.js';
import { CustomFields, CustomFieldsController } from './custom-fields/custom-fields.controller.js';
import { UserListsController } from './lists/user-lists.controller.js';
import { ImpersonationController } from './impersonation/impersonation.controller.js';
import { PermissionsController } from './permissions/permissions.controller.js';
import { NetworksModule } from '../networks/networks.module.js';
import { PermissionTemplatesSetup } from './permission-templates/permission-templates.setup.js';
import { CustomFieldsSetup } from './custom-fields/custom-fields.setup.js';
import { StudentLinksSetup } from './relations/student-links.setup.js';
import { PermissionTemplatesController } from './permission-templates/permission-templates.controller.js';

@Module({
  imports: [NetworksModule],
  // LoginController and the other users/<word> controllers first: their routes must be matched before
  // UsersController's users/:id.
  controllers: [
    LoginController,
    CurrentUserController,
    CustomFieldsController,
    UserListsController,
    UserExportsController,
    UserImportsController,
    StudentContactsController,
    ImpersonationController,
    StudentFilesController,
    UserDeletionController,
    StudentLinksController,
    UsersController,
    AuditController,
    PermissionTemplatesController,
    PermissionsController,
    PasswordRecoveryController,
    ActivationController,
    ActivationLinksController,
    MailOutboxController,
  ],
  providers: [
    Credentials,
    LoginThrottle,
    MailThrottle,
    TokenLinks,
    TokenLinkFlow,
    AccountActivation,
    CustomFields,
    FirstSuperuser,
    UsersReadModel,
    StudentLinksReadModel,
    // Each area registers its own live rules (the setup pattern, decision 0050).
    PermissionTemplatesSetup,
    CustomFieldsSetup,
    StudentLinksSetup,
    UserCommands,
    UserAccess,
    UserCreation,
    StudentActivityReadModel,
    DeactivationScheduler,
    { provide: ACTOR_LOADER, useExisting: UsersReadModel },
  ],
  exports: [
    FirstSuperuser,
    // For the domains built on identity (EHCP, customer invitations).
    UserCommands,
    Credentials,
    TokenLinkFlow,
    UsersReadModel,
    StudentLinksReadModel,
    NetworksModule,
    UserAccess,
    ACTOR_LOADER,
    DeactivationScheduler,
  ],
})
export class IdentityModule {}
