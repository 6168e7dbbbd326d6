import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { ResponseConfig, RouteConfig } from '@asteasolutions/zod-to-openapi';
import type { z } from 'zod';
import { parseInput } from './validate';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** An HTTP authentication scheme (Bearer, Basic) as the document's `components.securitySchemes` holds it. */
export type HttpSecurityScheme = {
  type: 'http';
  scheme: 'bearer' | 'basic';
  bearerFormat?: string;
  description: string;
};

/** Who may call a route: what the document says of it, and the middleware that enforces it. */
export interface RouteAuth<Deps> {
  /** The schemes `security` names, by name. */
  schemes: Record<string, HttpSecurityScheme>;
  /** The operation's `security`; an empty requirement (`{}`) first makes it optional. */
  security: Array<Record<string, string[]>>;
  /** The 401 answer, added to the route's answers unless the route gives its own. */
  unauthorized: ResponseConfig;
  /** Runs before the input is parsed, so a caller who may not call gets 401 before any 400. */
  guard(deps: Deps): RequestHandler;
}

type RouteParameters = NonNullable<NonNullable<RouteConfig['request']>['params']>;

/** The inputs a route parses, each before its handler runs: path parameters, then query, then body. */
export interface RouteInput {
  params?: RouteParameters;
  query?: RouteParameters;
  /** A JSON body. */
  body?: z.ZodType;
  /** False: a client may send no body (it is parsed as `{}`). Default true. */
  bodyRequired?: boolean;
}

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

/** What a handler gets: the parsed inputs, the request and response, and the service's dependencies. */
export interface RouteCall<Deps, I extends RouteInput> {
  params: Parsed<I['params']>;
  query: Parsed<I['query']>;
  body: Parsed<I['body']>;
  req: Request;
  res: Response;
  deps: Deps;
}

/**
 * One endpoint, declared once: the Express router (`mountRoutes`) and the OpenAPI document
 * (`buildApiDocument`) are both made from it, so they cannot disagree.
 */
export interface RouteDeclaration<Deps, I extends RouteInput> {
  method: HttpMethod;
  /** In Express syntax, `/users/:id`; the document writes `/users/{id}`. */
  path: string;
  tags: string[];
  summary: string;
  description?: string;
  /** None: anyone may call it. */
  auth?: RouteAuth<Deps>;
  request?: I;
  /** The answers, by status. */
  responses: Record<number, ResponseConfig>;
  /** Writes the answer on `res`; a rejection reaches the error handler (Express 5). */
  handler(call: RouteCall<Deps, I>): void | Promise<void>;
}

/** A declared route, its inputs' types no longer needed: what services list and mount. */
export type ApiRoute<Deps> = RouteDeclaration<Deps, RouteInput>;

/**
 * `const route = routeDeclarer<MyDeps>()`, then `route({...})` for each endpoint: the handler's
 * inputs are typed from the declared schemas, and its `deps` as the service's.
 */
export function routeDeclarer<Deps>() {
  // The cast forgets the inputs' types: mountRoutes passes the handler what those schemas parsed.
  return <I extends RouteInput = Record<never, never>>(route: RouteDeclaration<Deps, I>): ApiRoute<Deps> => route as unknown as ApiRoute<Deps>;
}

/** An Express router serving `routes` in their order, each guarded by its auth and fed its parsed inputs. */
export function mountRoutes<Deps>(routes: readonly ApiRoute<Deps>[], deps: Deps): Router {
  const router = Router();
  for (const route of routes) {
    const guards = route.auth ? [route.auth.guard(deps)] : [];
    router[route.method](route.path, ...guards, async (req: Request, res: Response) => {
      const { params, query, body } = route.request ?? {};
      await route.handler({
        params: params && parseInput(params, req.params, 'params'),
        query: query && parseInput(query, req.query, 'query'),
        body: body && parseInput(body, req.body, 'body'),
        req,
        res,
        deps,
      });
    });
  }
  return router;
}
