import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GENERATED_FILES, generateResolverTypes } from '../../schema/codegen.ts';

describe('subgraphs/<service>/generated/graphql.ts', () => {
  it('is what npm run codegen generates from the current SDL files', async () => {
    const generated = await generateResolverTypes();
    expect([...generated.keys()].sort()).toEqual([...GENERATED_FILES].sort());
    for (const [file, content] of generated) expect(fs.readFileSync(file, 'utf8'), file).toBe(content);
  });
});
