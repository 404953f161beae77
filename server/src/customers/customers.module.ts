import { Module } from '@nestjs/common';
import { IdentityModule } from '../identity/identity.module.js';
import { CustomersController } from './customers.controller.js';

@Module({ imports: [IdentityModule], controllers: [CustomersController] })
export class CustomersModule {}
