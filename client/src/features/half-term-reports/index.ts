import { lazy } from 'react';
import { screen, type Feature } from '../../shared/routing/screens';
import { reports, timeframes } from './api';

const lists = () => import('./pages/ReportListPages');
const AllReportsPage = lazy(() => lists().then((m) => ({ default: m.AllReportsPage })));
const MyReportsPage = lazy(() => lists().then((m) => ({ default: m.MyReportsPage })));
const QaQueuePage = lazy(() => lists().then((m) => ({ default: m.QaQueuePage })));
const QaLeadQueuePage = lazy(() => lists().then((m) => ({ default: m.QaLeadQueuePage })));
const PartnerReportsPage = lazy(() => lists().then((m) => ({ default: m.PartnerReportsPage })));
const LiveBoardPage = lazy(() => import('./pages/LiveBoardPage').then((m) => ({ default: m.LiveBoardPage })));
const ReportPage = lazy(() => import('./pages/ReportPage').then((m) => ({ default: m.ReportPage })));
const AssignmentsPage = lazy(() =>
  import('./pages/AssignmentsPage').then((m) => ({ default: m.AssignmentsPage })),
);
const timeframePages = () => import('./pages/TimeframePages');
const TimeframesPage = lazy(() => timeframePages().then((m) => ({ default: m.TimeframesPage })));
const TimeframeEditPage = lazy(() => timeframePages().then((m) => ({ default: m.TimeframeEditPage })));
const TimeframeDetailsPage = lazy(() => timeframePages().then((m) => ({ default: m.TimeframeDetailsPage })));

/** Half-term reports: timeframes, lists and queues, assignments and the co-written report (decision 0057). */
export const halfTermReports: Feature = {
  screens: {
    'half-term-reports': screen(AllReportsPage),
    'my-half-term-reports': screen(MyReportsPage),
    'half-term-reports-qa': screen(QaQueuePage),
    'half-term-reports-qa-lead': screen(QaLeadQueuePage),
    'partner/half-term-reports': screen(PartnerReportsPage),
    'half-term-reports/assignments': screen(AssignmentsPage),
    'half-term-reports/live': screen(LiveBoardPage),
    'half-term-report/:id/:mode?': screen(ReportPage),
    'report-submission-timeframes': screen(TimeframesPage),
    'report-submission-timeframes/:id': screen(TimeframeEditPage),
    'report-submission-timeframes/:id/details': screen(TimeframeDetailsPage),
  },
  liveRoots: {
    halfTermReport: reports.root,
    halfTermReportViews: reports.root,
    halfTermReportText: reports.root,
    reportTimeframe: timeframes.root,
  },
};
