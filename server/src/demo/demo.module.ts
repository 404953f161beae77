import { Module } from '@nestjs/common';
import { DemoData } from './demo-data.js';

@Module({ providers: [DemoData], exports: [DemoData] })
export class DemoModule {}
