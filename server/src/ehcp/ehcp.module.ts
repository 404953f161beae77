import { Module } from '@nestjs/common';
import { IdentityModule } from '../identity/identity.module.js';
import { EhcpController } from './ehcp.controller.js';
import { EhcpSetup } from './ehcp.setup.js';

/**
 * EHCP reminders and requests (decision 0035): their own domain on top of identity (the users read
 * model, `UserAccess`); EHCP files themselves are student files, which stay with the user record.
 */
@Module({ imports: [IdentityModule], controllers: [EhcpController], providers: [EhcpSetup] })
export class EhcpModule {}
