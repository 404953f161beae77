import { lazy } from 'react';
import { screen, type Feature } from '../../shared/routing/screens';
import { customers as resource } from './api';

const CustomerDetailsPage = lazy(() =>
  import('./pages/CustomerDetailsPage').then((m) => ({ default: m.CustomerDetailsPage })),
);
const CustomersPage = lazy(() => import('./pages/CustomersPage').then((m) => ({ default: m.CustomersPage })));

export const customers: Feature = {
  screens: {
    customers: screen(CustomersPage),
    'customers/details/:id': screen(CustomerDetailsPage),
    'customers/:id': screen(CustomerDetailsPage),
  },
  liveRoots: { customer: resource.root },
};
