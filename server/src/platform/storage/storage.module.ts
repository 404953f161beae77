import { Module } from '@nestjs/common';
import { StorageController } from './storage.controller.js';

/** The embedded storage service's HTTP side (StorageService itself is a global platform provider). */
@Module({ controllers: [StorageController] })
export class StorageModule {}
