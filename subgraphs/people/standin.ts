import type { FastifyInstance } from 'fastify';
import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { DEMO_TENANT, requireAccess } from '../../platform/auth.ts';
import { SERVICE_ROOTS } from '../../platform/config.ts';
import { prepareOncePerDatabase } from '../../platform/db.ts';
import { DomainError, registerProblems } from '../../platform/errors.ts';
import { declareRoute, installProblemHandlers, requestContextOf, useRequestContext } from '../../platform/http.ts';
import type { PlatformRuntime } from '../../platform/service.ts';
import { parseInput } from '../../platform/validation.ts';
import { persons } from './tables.ts';

/**
 * A stand-in of the people and organizations service: GET /people/{personId} of the caller's tenant
 * (people_orgs:read), plus POST /people for operators to register persons (tests and demos). The
 * demo tenant starts with a few synthetic, test and real persons.
 */

const PEOPLE_CODES = { 'people:not_found': { status: 404, title: 'No such person in this tenant' } } as const;

declare module '../../platform/errors.ts' {
  interface ServiceProblemCodes {
    people: keyof typeof PEOPLE_CODES;
  }
}

registerProblems(PEOPLE_CODES);

const NAMESPACE = { prefix: 'people', separator: ':' } as const;
const READ = { scopes: ['people_orgs:read'] };
const REGISTER = { anyRole: ['operator'] };

export const PersonInput = z
  .object({
    personId: z.string().min(1).max(200),
    givenName: z.string().min(1),
    familyName: z.string().min(1),
    reality: z.enum(['real', 'test', 'synthetic']),
    status: z.enum(['active', 'inactive']).default('active'),
  })
  .strict();

const DEMO_PERSONS: Array<z.input<typeof PersonInput>> = [
  { personId: 'demo-student-synthetic-1', givenName: 'Sam', familyName: 'Synthetic', reality: 'synthetic' },
  { personId: 'demo-student-test-1', givenName: 'Tess', familyName: 'Tester', reality: 'test' },
  { personId: 'demo-student-real-1', givenName: 'Riley', familyName: 'Real', reality: 'real' },
];

const PersonResponse = z.strictObject({
  personId: z.string(),
  givenName: z.string(),
  familyName: z.string(),
  reality: z.string(),
  status: z.string(),
});

type PersonRow = typeof persons.$inferSelect;

/** Prepared once: every page of events asks for its students' names. */
const personById = prepareOncePerDatabase((db) =>
  db
    .select()
    .from(persons)
    .where(and(eq(persons.tenantId, sql.placeholder('tenantId')), eq(persons.personId, sql.placeholder('personId'))))
    .prepare('people_person_by_id'),
);

/** A person as answered: the row without its tenant and its creation time. */
const present = ({ tenantId: _tenantId, createdAt: _createdAt, ...person }: PersonRow) => person;

export async function mountPeopleStandIn(app: FastifyInstance, runtime: PlatformRuntime): Promise<void> {
  const { db } = runtime.database;
  await runtime.database.migrate('people');
  const now = new Date().toISOString();
  await db
    .insert(persons)
    .values(DEMO_PERSONS.map((person) => ({ ...PersonInput.parse(person), tenantId: DEMO_TENANT, createdAt: now })))
    .onConflictDoNothing();

  await app.register(
    async (scope) => {
      installProblemHandlers(scope, NAMESPACE);
      useRequestContext(scope, (request) => requestContextOf(runtime.auth, request));
      declareRoute(scope, 'people (stand-in)', {
        method: 'GET',
        url: '/people/:personId',
        access: READ,
        summary: 'A person of the caller tenant',
        response: PersonResponse,
        params: z.object({ personId: z.string() }),
        handler: async (request) => {
          const { ctx } = request;
          requireAccess(ctx.principal, READ, 'read people');
          const { personId } = request.params;
          const [row] = await personById(db).execute({ tenantId: ctx.tenantId, personId });
          if (!row) throw new DomainError('people:not_found', `No person ${personId} in this tenant.`);
          return present(row);
        },
      });
      declareRoute(scope, 'people (stand-in)', {
        method: 'POST',
        url: '/people',
        access: REGISTER,
        summary: 'Register a person (operators; the stand-in only)',
        response: PersonResponse,
        body: PersonInput,
        success: { status: 201, description: 'person' },
        handler: async (request, reply) => {
          const { ctx } = request;
          requireAccess(ctx.principal, REGISTER, 'register people');
          const input = parseInput(PersonInput, request.body);
          const [row] = await db
            .insert(persons)
            .values({ ...input, tenantId: ctx.tenantId, createdAt: ctx.now.toISOString() })
            .onConflictDoUpdate({
              target: [persons.tenantId, persons.personId],
              set: {
                givenName: input.givenName,
                familyName: input.familyName,
                reality: input.reality,
                status: input.status,
              },
            })
            .returning();
          return reply.code(201).send(present(row));
        },
      });
    },
    { prefix: SERVICE_ROOTS.people },
  );
}
