import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { declareRoute } from '../../../platform/http.ts';
import { ACCESS } from '../access.ts';
import type { RequestContext } from '../../../platform/context.ts';
import type { EventsDeps } from '../deps.ts';
import {
  ListAttendanceQuery,
  ListDisciplineQuery,
  getAttendanceEvent,
  getDisciplineEvent,
  listAttendanceEvents,
  listDisciplineEvents,
} from './moments.service.ts';
import {
  AttendancePageResponse,
  DisciplinePageResponse,
  OneAttendanceResponse,
  OneDisciplineResponse,
} from './moments.responses.ts';

/** One kind of moment: its collection, the name of its id in the path, and its two reads. */
interface MomentKind {
  collection: 'attendance-events' | 'discipline-events';
  idParam: string;
  noun: string;
  query: typeof ListAttendanceQuery | typeof ListDisciplineQuery;
  page: z.ZodType;
  one: z.ZodType;
  list: (deps: EventsDeps, ctx: RequestContext, input: { query: unknown }) => Promise<unknown>;
  get: (deps: EventsDeps, ctx: RequestContext, input: { id: string }) => Promise<unknown>;
}

const MOMENT_KINDS: MomentKind[] = [
  {
    collection: 'attendance-events',
    idParam: 'attendanceEventId',
    noun: 'attendance',
    query: ListAttendanceQuery,
    page: AttendancePageResponse,
    one: OneAttendanceResponse,
    list: listAttendanceEvents,
    get: getAttendanceEvent,
  },
  {
    collection: 'discipline-events',
    idParam: 'disciplineEventId',
    noun: 'discipline',
    query: ListDisciplineQuery,
    page: DisciplinePageResponse,
    one: OneDisciplineResponse,
    list: listDisciplineEvents,
    get: getDisciplineEvent,
  },
];

export function momentRoutes(app: FastifyInstance, reads: EventsDeps): void {
  for (const kind of MOMENT_KINDS) {
    declareRoute(app, kind.collection, {
      method: 'GET',
      url: `/${kind.collection}`,
      access: ACCESS.read,
      summary: `List ${kind.noun} moments (read-only; from/to at date grain)`,
      response: kind.page,
      querystring: kind.query,
      handler: async (request) => kind.list(reads, request.ctx, { query: request.query }),
    });
    declareRoute(app, kind.collection, {
      method: 'GET',
      url: `/${kind.collection}/:${kind.idParam}`,
      access: ACCESS.read,
      summary: `Read one ${kind.noun} moment`,
      response: kind.one,
      params: z.object({ [kind.idParam]: z.string() }),
      handler: async (request) => kind.get(reads, request.ctx, { id: request.params[kind.idParam] }),
    });
  }
}
