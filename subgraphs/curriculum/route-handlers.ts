import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { AccessRule } from '../../platform/auth.ts';
import type { RequestContext } from '../../platform/context.ts';
import type { CommandResult } from '../../platform/idempotency.ts';
import {
  declareRoute,
  headerOf,
  sendCommandResult,
  writeHeaders,
  type PreconditionHeader,
} from '../../platform/http.ts';
import { CURRICULUM_V1 } from './paths.ts';
import type { CurriculumDeps } from './deps.ts';
import type { CommandInput, CurriculumRule, ListInput, WriteHeaders } from './rule-inputs.ts';

type Request = FastifyRequest & { ctx: RequestContext };
/** The path's ids, already parsed by the route's params schema before any handler runs. */
const paramsOf = <Params>(request: Request) => request.params as Params;
/** A resource whose answers carry its ETag. */
type Tagged = { etag: string };

/**
 * The REST handlers of curriculum's resources, one per kind of call: each hands a rule the parts of
 * the request it takes and answers its result, with the resource's ETag where it has one.
 */
export function resourceHandlers(deps: CurriculumDeps) {
  const sendTagged = <T extends Tagged>(reply: FastifyReply, result: CommandResult<T>) =>
    sendCommandResult(reply, result, { etag: result.value.etag });
  return {
    /** POST of a new resource: its body and Idempotency-Key. */
    create:
      <T extends Tagged>(rule: CurriculumRule<CommandInput, CommandResult<T>>) =>
      async (request: Request, reply: FastifyReply) =>
        sendTagged(
          reply,
          await rule(deps, request.ctx, { body: request.body, idempotencyKey: headerOf(request, 'idempotency-key') }),
        ),
    /** POST of a write answered without an ETag: the path's ids, its body (absent is empty) and Idempotency-Key. */
    command:
      <Params extends object>(rule: CurriculumRule<Params & CommandInput, CommandResult<unknown>>) =>
      async (request: Request, reply: FastifyReply) =>
        sendCommandResult(
          reply,
          await rule(deps, request.ctx, {
            ...paramsOf<Params>(request),
            body: request.body ?? {},
            idempotencyKey: headerOf(request, 'idempotency-key'),
          }),
        ),
    /** GET of one resource by its path, answered with its ETag. */
    read:
      <Params extends object, T extends Tagged>(rule: CurriculumRule<Params, T>) =>
      async (request: Request, reply: FastifyReply) => {
        const resource = await rule(deps, request.ctx, paramsOf<Params>(request));
        return reply.header('etag', resource.etag).send(resource);
      },
    /** GET of a page: the path's ids and the query as sent. */
    list:
      <Params extends object, T>(rule: CurriculumRule<Params & ListInput, T>) =>
      async (request: Request) =>
        rule(deps, request.ctx, { ...paramsOf<Params>(request), query: request.query }),
    /** PATCH of a resource under its precondition header: its path, body and write headers. */
    edit:
      <Params extends object, T extends Tagged>(
        rule: CurriculumRule<Params & { body: unknown } & WriteHeaders, CommandResult<T>>,
        precondition: PreconditionHeader,
      ) =>
      async (request: Request, reply: FastifyReply) =>
        sendTagged(
          reply,
          await rule(deps, request.ctx, {
            ...paramsOf<Params>(request),
            body: request.body,
            ...writeHeaders(request, precondition),
          }),
        ),
    /** DELETE of a resource under its precondition header. */
    retire:
      <Params extends object, T extends Tagged>(
        rule: CurriculumRule<Params & WriteHeaders, CommandResult<T>>,
        precondition: PreconditionHeader,
      ) =>
      async (request: Request, reply: FastifyReply) =>
        sendTagged(
          reply,
          await rule(deps, request.ctx, { ...paramsOf<Params>(request), ...writeHeaders(request, precondition) }),
        ),
  };
}

/** A list's query schema: an object of the query string's fields. */
type QuerySchema = z.ZodType<Record<string, unknown>, Record<string, unknown>>;

interface RouteText {
  summary: string;
  /** The access rule the route's rule checks (the same `ACCESS` object), documented as its security. */
  access: AccessRule;
  description?: string;
  /** Statuses of the route's own refusals. */
  errors?: number[];
}

/**
 * A curriculum resource's routes under one path, by its conventions: a create (POST, optional
 * Idempotency-Key, 201 or 200 for one that exists) and a list on the collection; a read (with its
 * ETag), an edit and a retire (both under a required precondition and Idempotency-Key) on the item.
 */
export interface ResourceRoutes<P extends z.ZodObject> {
  tag: string;
  /** The collection's path under the curriculum prefix; the item's is it plus the one param. */
  path: string;
  params: P;
  response: z.ZodType;
  precondition: PreconditionHeader;
  create?: RouteText & {
    body: z.ZodType;
    success: string;
    rule: CurriculumRule<CommandInput, CommandResult<Tagged>>;
  };
  list?: RouteText & { page: z.ZodType; query: QuerySchema; rule: CurriculumRule<ListInput, unknown> };
  read?: RouteText & { rule: CurriculumRule<z.output<P>, Tagged> };
  edit?: RouteText & {
    body: z.ZodType;
    rule: CurriculumRule<z.output<P> & { body: unknown } & WriteHeaders, CommandResult<Tagged>>;
  };
  retire?: RouteText & { rule: CurriculumRule<z.output<P> & WriteHeaders, CommandResult<Tagged>> };
}

export function declareResourceRoutes<P extends z.ZodObject>(
  app: FastifyInstance,
  deps: CurriculumDeps,
  resource: ResourceRoutes<P>,
): void {
  const handlers = resourceHandlers(deps);
  const { tag, params, response, precondition, create, list, read, edit, retire } = resource;
  const url = `${CURRICULUM_V1}/${resource.path}`;
  const text = ({ summary, description, errors, access }: RouteText) => ({ summary, description, errors, access });
  const onItem = { url: `${url}/:${Object.keys(params.shape)[0]}`, response, etag: true, params };
  const guarded = {
    ...onItem,
    idempotencyKey: 'required',
    precondition: { header: precondition, required: true },
  } as const;
  if (create) {
    declareRoute(app, tag, {
      method: 'POST',
      url,
      ...text(create),
      response,
      etag: true,
      idempotencyKey: 'optional',
      body: create.body,
      success: { status: 201, description: create.success },
      handler: handlers.create(create.rule),
    });
  }
  if (list) {
    const handler = handlers.list(list.rule);
    declareRoute(app, tag, {
      method: 'GET',
      url,
      ...text(list),
      response: list.page,
      querystring: list.query,
      handler,
    });
  }
  if (read) declareRoute(app, tag, { method: 'GET', ...onItem, ...text(read), handler: handlers.read(read.rule) });
  if (edit) {
    const handler = handlers.edit(edit.rule, precondition);
    declareRoute(app, tag, { method: 'PATCH', ...guarded, ...text(edit), body: edit.body, handler });
  }
  if (retire) {
    const handler = handlers.retire(retire.rule, precondition);
    declareRoute(app, tag, { method: 'DELETE', ...guarded, ...text(retire), handler });
  }
}
