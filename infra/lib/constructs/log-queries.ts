/**
 * Saved Logs Insights queries of a stage (log-queries.ts says which, and over which log
 * groups), as QueryDefinitions named `<prefix>/<name>`, with the console link that opens each:
 * the site stack's over the functions' and the API's logs, the us-east-1 stack's over
 * CloudFront's access log.
 */
import { Stack } from 'aws-cdk-lib';
import { QueryDefinition, QueryString, type ILogGroup } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { savedQueryUrl } from '../console-links';
import type { LogQuery } from '../log-queries';

export interface SavedQueriesProps<Name extends string, Source extends string> {
  /** Start of every query's name. */
  prefix: string;
  queries: Record<Name, LogQuery<Source>>;
  logGroups: Record<Source, ILogGroup>;
}

export class SavedQueries<Name extends string, Source extends string = string> extends Construct {
  private readonly prefix: string;
  private readonly definitions = new Map<Name, QueryDefinition>();

  constructor(scope: Construct, id: string, props: SavedQueriesProps<Name, Source>) {
    super(scope, id);
    this.prefix = props.prefix;
    for (const [name, entry] of Object.entries(props.queries) as [Name, LogQuery<Source>][]) {
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
  nameOf(name: Name): string {
    return `${this.prefix}/${name}`;
  }

  /** Its id, known at deploy time. */
  idOf(name: Name): string {
    return this.definitions.get(name)!.queryDefinitionId;
  }

  /** The console page that opens it, in the stack's region. */
  urlOf(name: Name): string {
    return savedQueryUrl(Stack.of(this).region, this.idOf(name));
  }
}
