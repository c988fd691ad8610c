/**
 * @module
 * Binds the handler classes to HTTP through the generated contract
 * (`generated/issues/openapi.server.ts`) and Loom's decorator runtime, with Gitea's error
 * answers installed as the router's exception handler.
 */
import type { Hono } from 'hono';
import { AdminRoutes, IssueRoutes, OrganizationRoutes, RepositoryRoutes, UserRoutes } from '../../../generated/issues/openapi.server.js';
import { createRestRouter, type RestRouter } from '../../rest/index.js';
import { checkBeforeBinding, isBindingError } from './binding-order.js';
import type { IssuesConfig } from './config.js';
import { createIssuesErrorHandler, type IssuesErrorHandlerOptions } from './error-handler.js';
import { GITEA_JSON_TYPE } from './errors.js';
import {
  AdminHandlers,
  IssueHandlers,
  type IssuesServices,
  OrganizationHandlers,
  RepositoryHandlers,
  UserHandlers,
} from './handlers/index.js';

/**
 * Registers the five generated route classes over the handlers and returns the router's app.
 *
 * @example
 * app.route('/', issuesRestApp(services, config));
 */
export function issuesRestApp(services: IssuesServices, config: IssuesConfig, options: IssuesErrorHandlerOptions = {}): Hono {
  return issuesRestRouter(services, config, options).app();
}

/**
 * The router of {@link issuesRestApp}, for callers that also read its routes.
 *
 * @example
 * const router = issuesRestRouter(services, config);
 * router.routes().length; // one per operation
 */
export function issuesRestRouter(services: IssuesServices, config: IssuesConfig, options: IssuesErrorHandlerOptions = {}): RestRouter {
  const handleError = createIssuesErrorHandler(config, options);
  // No body limit of the decorator runtime's own: the app's middleware applies the configured
  // `maxBodyBytes` before routing, answering in Gitea's shape.
  // Gitea answers JSON whatever `Accept` says (no 406), labelled as its `ctx.JSON` labels it.
  return createRestRouter({ maxBodyBytes: Number.POSITIVE_INFINITY, unacceptable: 'first', jsonContentType: GITEA_JSON_TYPE })
    .register(
      new IssueRoutes(new IssueHandlers(services)),
      new RepositoryRoutes(new RepositoryHandlers(services)),
      new AdminRoutes(new AdminHandlers(services)),
      new UserRoutes(new UserHandlers(services)),
      new OrganizationRoutes(new OrganizationHandlers(services)),
    )
    .exceptionHandlers({
      catches: Error,
      handle: async (error, c) => {
        // A request the runtime could not bind gets Gitea's 404 or 401 first where Gitea gives one.
        if (isBindingError(error)) {
          try {
            await checkBeforeBinding(services.store, c);
          } catch (earlier) {
            return handleError(earlier, c);
          }
        }
        return handleError(error, c);
      },
    });
}
