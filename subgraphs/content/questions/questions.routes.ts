import type { FastifyInstance } from 'fastify';
import type { ContentDeps } from '../deps.ts';
import { declareRoute } from '../../../platform/http.ts';
import { ACCESS } from '../access.ts';
import { ItemParams, TENANT_ROOT } from '../http.ts';
import {
  AnswerSlotsQuery,
  ComponentsQuery,
  StudentViewQuery,
  VersionQuery,
  listAnswerKeys,
  listAnswerSlots,
  listAssessmentComponents,
  listScoringPlan,
  readStudentView,
} from './questions.service.ts';
import {
  AnswerKeyPageResponse,
  AnswerSlotPageResponse,
  AssessmentComponentPageResponse,
  ScoringPlanPageResponse,
  StudentViewResponse,
} from './questions.responses.ts';

export function questionRoutes(app: FastifyInstance, deps: ContentDeps): void {
  const reads = [
    [
      'student-view',
      'The newest (or version_id) student view; answer keys with includeAnswerKeys=true and read:answer_key',
      StudentViewQuery,
      readStudentView,
      StudentViewResponse,
      ACCESS.read,
    ],
    [
      'answer-slots',
      'Answer slots of a question version',
      AnswerSlotsQuery,
      listAnswerSlots,
      AnswerSlotPageResponse,
      ACCESS.read,
    ],
    [
      'answer-keys',
      'Answer keys of a question version (read:answer_key)',
      VersionQuery,
      listAnswerKeys,
      AnswerKeyPageResponse,
      ACCESS.answerKeys,
    ],
    [
      'assessment-components',
      'Assessment components of a version, by component_role',
      ComponentsQuery,
      listAssessmentComponents,
      AssessmentComponentPageResponse,
      ACCESS.read,
    ],
    [
      'scoring-plan',
      'Scoring plan projection of a question version',
      VersionQuery,
      listScoringPlan,
      ScoringPlanPageResponse,
      ACCESS.read,
    ],
  ] as const;
  for (const [path, summary, querystring, read, response, access] of reads) {
    declareRoute(app, 'questions', {
      method: 'GET',
      url: `${TENANT_ROOT}/items/:contentId/${path}`,
      access,
      summary,
      params: ItemParams,
      querystring,
      response,
      handler: async (request) => {
        const { ctx } = request;
        return read(deps, ctx, { ...request.params, query: request.query });
      },
    });
  }
}
