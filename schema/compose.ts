import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { composeServices } from '@apollo/composition';
import { parse } from 'graphql';

/**
 * `npm run compose`: composes the subgraph SDL files into schema/supergraph.graphql (checked in, and
 * valid for Apollo Router). `--check` exits 1 when the checked-in file is out of date.
 */
const SUBGRAPHS = [
  { name: 'curriculum', url: 'http://curriculum.internal/graphql' },
  { name: 'content', url: 'http://content.internal/graphql' },
  { name: 'events', url: 'http://events.internal/graphql' },
];
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

export function composeSupergraph(): string {
  const result = composeServices(
    SUBGRAPHS.map(({ name, url }) => ({
      name,
      url,
      typeDefs: parse(fs.readFileSync(here(`./${name}.graphql`), 'utf8')),
    })),
  );
  if (result.errors) throw new Error(`composition failed:\n${result.errors.map((error) => error.message).join('\n')}`);
  return `${result.supergraphSdl.trimEnd()}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const supergraph = composeSupergraph();
  const target = here('./supergraph.graphql');
  if (process.argv.includes('--check')) {
    const current = fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : '';
    if (current !== supergraph) {
      console.error('schema/supergraph.graphql is out of date: run npm run compose');
      process.exit(1);
    }
  } else {
    fs.writeFileSync(target, supergraph);
    console.log(`wrote ${target}`);
  }
}
