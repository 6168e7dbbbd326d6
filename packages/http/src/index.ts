export { BACKGROUND_HEADER } from './api-cors';
export { createHttpApp, probeDependencies } from './create-http-app';
export type { DependencyReport, HttpAppOptions, ReadinessCheck } from './create-http-app';
export { DEPENDENCY_RETRY_AFTER_SECONDS, isDependencyUnavailable } from './dependency-errors';
export {
  AppError,
  ConflictError,
  ForbiddenError,
  InvalidInputError,
  NotFoundError,
  ServiceUnavailableError,
  TooManyRequestsError,
  UnauthorizedError,
} from './errors';
export { errorHandler, toErrorResponse } from './error-handler';
export type { ErrorBody } from './error-handler';
export { compareRoutesWithDocument, INFRASTRUCTURE_PATHS, listApiRoutes, listMountedRoutes } from './mounted-routes';
export type { MountedRoute } from './mounted-routes';
export { mountRoutes, routeDeclarer } from './api-routes';
export type { ApiRoute, HttpMethod, HttpSecurityScheme, RouteAuth, RouteCall, RouteDeclaration, RouteInput } from './api-routes';
export {
  buildApiDocument,
  buildOpenApiDocument,
  clientTokenAuth,
  errorBodySchema,
  errorResponse,
  jsonResponse,
  OpenAPIRegistry,
  toOpenApiPath,
} from './openapi';
export type { DocumentInfo, OpenApiDocument } from './openapi';
export { parseInput } from './validate';
export { idOf, timestamp, unstorableTextProblem } from './input-rules';
export { exitOnShutdownSignal, exitWithError, listenServer, serveHttp } from './serve';
export type { RunningServer, ServeOptions } from './serve';
export { nodeEndpointsSchema } from './node-endpoints-schema';
