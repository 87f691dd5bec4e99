import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { composeSupergraph } from '../../schema/compose.ts';
import { SUPERGRAPH_PATH } from '../../gateway/platform.ts';

describe('schema/supergraph.graphql', () => {
  it('is the current composition of the subgraph SDL files (run npm run compose)', () => {
    expect(fs.readFileSync(SUPERGRAPH_PATH, 'utf8')).toBe(composeSupergraph());
  });
});
