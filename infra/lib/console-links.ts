/**
 * Addresses in the AWS console that the stacks hand to whoever is on call: in an alarm's
 * description (its e-mail), in the dashboard's own text and in the stack's outputs. Plain
 * strings, so an alarm e-mail read on a phone opens the page itself.
 */

const cloudWatch = (region: string) => `https://${region}.console.aws.amazon.com/cloudwatch/home?region=${region}`;

/** A dashboard by name. */
export const dashboardUrl = (region: string, name: string) => `${cloudWatch(region)}#dashboards/dashboard/${name}`;

/** Logs Insights with a saved query (a QueryDefinition's id) open, ready to run over its log groups. */
export const savedQueryUrl = (region: string, queryDefinitionId: string) =>
  `${cloudWatch(region)}#logsV2:logs-insights$3FqueryDetail$3D~(queryId~'${queryDefinitionId})`;
