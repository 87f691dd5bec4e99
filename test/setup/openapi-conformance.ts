import { afterAll, expect } from 'vitest';
import { conformanceMismatches } from '../openapi-conformance.ts';

// Registered before any test file's hooks, so it runs after them: every answer of the file is in.
afterAll(() => {
  expect(conformanceMismatches, 'answers that the OpenAPI description does not describe').toEqual([]);
});
