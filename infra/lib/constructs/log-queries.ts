/**
 * The saved Logs Insights queries of a stage (log-queries.ts says which, and over which log
 * groups), as QueryDefinitions named `<prefix>/<name>`, with the console link that opens each.
 */
import { Stack } from 'aws-cdk-lib';
import { QueryDefinition, QueryString, type ILogGroup } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { savedQueryUrl } from '../console-links';
import { LOG_QUERIES, type LogQuery, type LogQueryName, type LogSource } from '../log-queries';

export interface SavedQueriesProps {
  /** Start of every query's name. */
  prefix: string;
  logGroups: Record<LogSource, ILogGroup>;
}

export class SavedQueries extends Construct {
  private readonly prefix: string;
  private readonly definitions = new Map<LogQueryName, QueryDefinition>();

  constructor(scope: Construct, id: string, props: SavedQueriesProps) {
    super(scope, id);
    this.prefix = props.prefix;
    for (const [name, entry] of Object.entries(LOG_QUERIES) as [LogQueryName, LogQuery][]) {
      this.definitions.set(
        name,
        new QueryDefinition(this, name, {
          queryDefinitionName: this.nameOf(name),
          queryString: new QueryString(entry.query),
          logGroups: entry.sources.map((source) => props.logGroups[source]),
        }),
      );
    }
  }

  /** As the console lists it: under a folder per stage. */
  nameOf(name: LogQueryName): string {
    return `${this.prefix}/${name}`;
  }

  /** Its id, known at deploy time. */
  idOf(name: LogQueryName): string {
    return this.definitions.get(name)!.queryDefinitionId;
  }

  /** The console page that opens it, in the stack's region. */
  urlOf(name: LogQueryName): string {
    return savedQueryUrl(Stack.of(this).region, this.idOf(name));
  }
}
