import { Module } from '@nestjs/common';
import { ChildOverviewController } from './child-overview.controller.js';

/** A family's view of one child (decision 0062): reads only, over the other areas' read models. */
@Module({ controllers: [ChildOverviewController] })
export class FamilyModule {}
