import { Module } from '@nestjs/common';
import { ProductsController } from './products.controller.js';
import { ReferenceSetup } from './reference.setup.js';
import { SubjectsController } from './subjects.controller.js';
import { YearGroupsController } from './year-groups.controller.js';

/** Teaching reference data: subjects, year groups, products (decision 0049). */
@Module({
  controllers: [SubjectsController, YearGroupsController, ProductsController],
  providers: [ReferenceSetup],
})
export class ReferenceModule {}
