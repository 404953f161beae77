import { Module } from '@nestjs/common';
import { IdentityModule } from '../identity/identity.module.js';
import { HalfTermReportsController } from './half-term-reports.controller.js';
import { HalfTermReportsSetup } from './half-term-reports.setup.js';
import { ReportDocuments } from './report-documents.js';
import { ReportReads } from './report-reads.js';
import { TimeframesController } from './timeframes.controller.js';
import { HalfTermDeadlinesJob } from './deadlines.job.js';

/** Half-term reports: timeframes, generation, the two-stage QA workflow and the co-written text (decision 0057). */
@Module({
  imports: [IdentityModule],
  controllers: [TimeframesController, HalfTermReportsController],
  providers: [ReportDocuments, ReportReads, HalfTermReportsSetup, HalfTermDeadlinesJob],
})
export class HalfTermReportsModule {}
