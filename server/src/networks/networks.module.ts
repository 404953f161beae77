import { Module } from '@nestjs/common';
import { NetworksController } from './networks.controller.js';
import { NetworksReadModel } from './networks.read.js';
import { NetworksSetup } from './networks.setup.js';

/**
 * Networks (spec §7 /networks): their own domain, imported by identity (a user's network and active
 * network, the current user's networks) and customers. Depends on no other domain module.
 */
@Module({
  controllers: [NetworksController],
  providers: [NetworksReadModel, NetworksSetup],
  exports: [NetworksReadModel],
})
export class NetworksModule {}
