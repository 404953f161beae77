import { Module } from '@nestjs/common';
import { NotificationsController } from './notifications.controller.js';
import { NotificationsSetup } from './notifications.setup.js';

@Module({ controllers: [NotificationsController], providers: [NotificationsSetup] })
export class NotificationsModule {}
