import { Module } from '@nestjs/common';
import { IdentityModule } from '../identity/identity.module.js';
import {
  CustomerInvitationsController,
  PartnerRegistrationController,
} from './customer-invitations.controller.js';
import { CustomerInvitationsSetup } from './customer-invitations.setup.js';

/**
 * Customer invitations and the partner registration they lead to (spec §2 /register/partner/invite):
 * their own domain on top of identity (user commands, credentials, mailed token links).
 */
@Module({
  imports: [IdentityModule],
  controllers: [CustomerInvitationsController, PartnerRegistrationController],
  providers: [CustomerInvitationsSetup],
})
export class CustomerInvitationsModule {}
