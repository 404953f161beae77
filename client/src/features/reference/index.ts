import { lazy, type ComponentType } from 'react';
import { screen, type Feature } from '../../shared/routing/screens';
import { products, subjects, termCalendars, yearGroups } from './api';

const page = <K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) =>
  lazy(() => load().then((m) => ({ default: m[name] })));

const ProductsPage = page(() => import('./pages/ProductsPage'), 'ProductsPage');
const ProductDetailsPage = page(() => import('./pages/ProductDetailsPage'), 'ProductDetailsPage');
const SubjectsPage = page(() => import('./pages/SubjectsPage'), 'SubjectsPage');
const YearGroupsPage = page(() => import('./pages/YearGroupsPage'), 'YearGroupsPage');
const TermCalendarsPage = page(() => import('./pages/TermCalendarsPage'), 'TermCalendarsPage');

/** Teaching reference data and term calendars (decision 0049). */
export const reference: Feature = {
  screens: {
    products: screen(ProductsPage),
    'products/:id': screen(ProductDetailsPage),
    'settings/subjects': screen(SubjectsPage),
    'settings/year-groups': screen(YearGroupsPage),
    'settings/term-calendars': screen(TermCalendarsPage),
  },
  liveRoots: {
    subject: subjects.root,
    yearGroup: yearGroups.root,
    product: products.root,
    termCalendar: termCalendars.root,
  },
};
