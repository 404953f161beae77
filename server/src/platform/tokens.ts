/** Nest injection tokens for platform resources. */
export const APP_CONFIG = Symbol('APP_CONFIG');
export const SQL_CLIENT = Symbol('SQL_CLIENT');
export const LOGGER = Symbol('LOGGER');
export { EVENT_STORE } from './event-store/event-store.js';
