import { main } from '../gateway/main.ts';
import { LocalSubgraphDataSource } from '../platform/graphql.ts';

/**
 * `npm start`'s platform with each embedded subgraph fetch answered from memory once it has been answered: the
 * bench's ceiling for the headline, what the HTTP path, Apollo Server and the gateway cost with no resolver and
 * no statement behind them. For the bench only: nothing it answers after a write is current.
 */
type SubgraphAnswer = ReturnType<LocalSubgraphDataSource['process']>;
const remembered = new Map<string, SubgraphAnswer>();
const processSubgraph = LocalSubgraphDataSource.prototype.process;
LocalSubgraphDataSource.prototype.process = function (this: LocalSubgraphDataSource, options) {
  const fetch = `${options.request.query}${JSON.stringify(options.request.variables)}`;
  let answer = remembered.get(fetch);
  if (!answer) remembered.set(fetch, (answer = processSubgraph.call(this, options)));
  return answer;
};

await main();
