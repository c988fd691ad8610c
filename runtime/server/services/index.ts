/**
 * @module
 * The services the server can run, by name. Adding a service: write its factory in this
 * folder, add one line here and its name to `SERVICE_NAMES` in `options.ts`.
 */
import type { ServiceName } from '../options.js';
import type { ServiceFactory } from '../service-module.js';
import { createIssuesModule } from './issues.js';
import { createSystemModule } from './system.js';

/** Factory per service name. */
export const SERVICE_FACTORIES: Readonly<Record<ServiceName, ServiceFactory>> = {
  issues: createIssuesModule,
  system: createSystemModule,
};
