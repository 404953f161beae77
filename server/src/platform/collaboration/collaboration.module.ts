import { Global, Module } from '@nestjs/common';
import { CollaborationServer } from './collaboration.server.js';
import { DocumentKinds } from './document-kinds.js';

/**
 * Collaborative documents over the y-websocket protocol at `/collab/{kind}:{id}`. Global so domain
 * modules can inject `DocumentKinds` and register their kinds.
 */
@Global()
@Module({
  providers: [DocumentKinds, CollaborationServer],
  exports: [DocumentKinds, CollaborationServer],
})
export class CollaborationModule {}
