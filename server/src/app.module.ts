import { Module, type DynamicModule } from '@nestjs/common';
import { APP_GUARD, APP_INTERCEPTOR, DiscoveryModule } from '@nestjs/core';
import { PlatformModule, type PlatformContext } from './platform/platform.module.js';
import { AuthGuard } from './platform/auth/auth.guard.js';
import { MinPositionInterceptor } from './platform/http/min-position.interceptor.js';
import { IdentityModule } from './identity/identity.module.js';
import { CustomersModule } from './customers/customers.module.js';
import { NotificationsModule } from './notifications/notifications.module.js';
import { ProgrammesModule } from './programmes/programmes.module.js';
import { EhcpModule } from './ehcp/ehcp.module.js';
import { AvailabilityModule } from './availability/availability.module.js';
import { CustomerInvitationsModule } from './customer-invitations/customer-invitations.module.js';
import { SafeguardingModule } from './safeguarding/safeguarding.module.js';
import { OnePageProfilesModule } from './one-page-profiles/one-page-profiles.module.js';
import { ReferenceModule } from './reference/reference.module.js';
import { TermCalendarsModule } from './term-calendars/term-calendars.module.js';
import { DemoModule } from './demo/demo.module.js';
import { LessonsModule, TeachingReportsModule } from './lessons/lessons.module.js';
import { CoverModule } from './cover/cover.module.js';
import { AttendanceModule } from './attendance/attendance.module.js';
import { HalfTermReportsModule } from './half-term-reports/half-term-reports.module.js';
import { FamilyModule } from './family/family.module.js';
import { CollaborationModule } from './platform/collaboration/collaboration.module.js';
import { HealthController } from './health/health.controller.js';
import { LiveModule } from './platform/live/live.module.js';
import { StorageModule } from './platform/storage/storage.module.js';

@Module({})
export class AppModule {
  static forRoot(context: PlatformContext): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformModule.forRoot(context),
        DiscoveryModule,
        // Before the users area: their `users/<word>` routes must not be read as `users/{id}`.
        TeachingReportsModule,
        AvailabilityModule,
        IdentityModule,
        CustomersModule,
        NotificationsModule,
        EhcpModule,
        CustomerInvitationsModule,
        SafeguardingModule,
        OnePageProfilesModule,
        ReferenceModule,
        TermCalendarsModule,
        ProgrammesModule,
        LessonsModule,
        CoverModule,
        AttendanceModule,
        HalfTermReportsModule,
        FamilyModule,
        DemoModule,
        LiveModule.forRoot({ imports: [IdentityModule] }),
        CollaborationModule,
        StorageModule,
      ],
      controllers: [HealthController],
      providers: [
        { provide: APP_GUARD, useClass: AuthGuard },
        { provide: APP_INTERCEPTOR, useExisting: MinPositionInterceptor },
      ],
    };
  }
}
