import { Module } from '@nestjs/common';
import { IdentityModule } from '../identity/identity.module.js';
import { CustomersController } from './customers.controller.js';
import { CustomersSetup } from './customers.setup.js';

@Module({ imports: [IdentityModule], controllers: [CustomersController], providers: [CustomersSetup] })
export class CustomersModule {}
