import { Global, Module, type DynamicModule, type ModuleMetadata } from '@nestjs/common';
import { LivePublisher } from './live-publisher.js';
import { LiveServer } from './live-server.js';
import { LiveSessions } from './live-sessions.js';
import { RoomPolicy } from './room-policy.js';
import { registerDefaultLiveRules } from './default-rules.js';

/**
 * The live channel (Socket.IO `/live`). Global, so domain modules can inject `RoomPolicy` to register
 * their rooms and audience rules, and `LiveSessions` to drop or refresh a user's sockets.
 * `imports` must provide the ACTOR_LOADER (the identity module).
 */
@Global()
@Module({})
export class LiveModule {
  static forRoot(options: { imports: ModuleMetadata['imports'] }): DynamicModule {
    return {
      module: LiveModule,
      imports: options.imports ?? [],
      providers: [
        {
          provide: RoomPolicy,
          useFactory: () => {
            const policy = new RoomPolicy();
            registerDefaultLiveRules(policy);
            return policy;
          },
        },
        LiveServer,
        LiveSessions,
        LivePublisher,
      ],
      exports: [RoomPolicy, LiveServer, LiveSessions],
    };
  }
}
