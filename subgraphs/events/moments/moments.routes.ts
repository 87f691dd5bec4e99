import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { declareRoute } from '../../../platform/http.ts';
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

export function momentRoutes(app: FastifyInstance, reads: EventsDeps): void {
  declareRoute(app, 'attendance-events', {
    method: 'GET',
    url: '/attendance-events',
    summary: 'List attendance moments (read-only; from/to at date grain)',
    response: AttendancePageResponse,
    querystring: ListAttendanceQuery,
    handler: async (request) => listAttendanceEvents(reads, request.ctx, { query: request.query }),
  });
  declareRoute(app, 'attendance-events', {
    method: 'GET',
    url: '/attendance-events/:attendanceEventId',
    summary: 'Read one attendance moment',
    response: OneAttendanceResponse,
    params: z.object({ attendanceEventId: z.string() }),
    handler: async (request) => getAttendanceEvent(reads, request.ctx, { id: request.params.attendanceEventId }),
  });
  declareRoute(app, 'discipline-events', {
    method: 'GET',
    url: '/discipline-events',
    summary: 'List discipline moments (read-only; from/to at date grain)',
    response: DisciplinePageResponse,
    querystring: ListDisciplineQuery,
    handler: async (request) => listDisciplineEvents(reads, request.ctx, { query: request.query }),
  });
  declareRoute(app, 'discipline-events', {
    method: 'GET',
    url: '/discipline-events/:disciplineEventId',
    summary: 'Read one discipline moment',
    response: OneDisciplineResponse,
    params: z.object({ disciplineEventId: z.string() }),
    handler: async (request) => getDisciplineEvent(reads, request.ctx, { id: request.params.disciplineEventId }),
  });
}
