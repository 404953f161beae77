import { composeScreens, type Feature, type Screens } from '../shared/routing/screens';
import * as features from './features';

const FEATURES: Feature[] = Object.values(features);

/** Screens that exist (from `features/<area>/index.ts`); every other route of the table shows the "not built yet" page. */
export const BUILT_SCREENS: Screens = composeScreens(FEATURES.map((feature) => feature.screens));

/** Public screens that exist; the other public routes show the "not built yet" page. */
export const BUILT_PUBLIC_SCREENS: Screens = composeScreens(FEATURES.map((feature) => feature.publicScreens));

/** Whether a protected route's screen is built: the sidebar and the dashboard offer only those (issue 18). */
export const isBuilt = (path: string): boolean => path in BUILT_SCREENS;
