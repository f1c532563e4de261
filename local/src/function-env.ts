/**
 * The environment the local stand-ins give the functions, under the names the CDK stack
 * gives them in AWS (core/src/function-env.ts): the functions' own settings only; the SDK's
 * are the emulators' (emulators.ts).
 */
import { DELIVERY_ALARM_ENV, FUNCTION_ENV, ORIGIN_VERIFY_ENV, VISITOR_LIMIT_ENV } from '@site/core/function-env';

export interface FunctionSettings {
  /** The stage the functions count their metrics under. */
  stage: string;
  tableName: string;
  mail: { from: string; to: string };
  configurationSet: string;
  retentionDays: number;
  deliveryAlarmHours: number;
  originSecret: string;
  visitorLimit: { messages: number; ipv6Network: number; windowSeconds: number };
}

/** Every function's settings in one environment: each reads its own (the deploy gives each only those). */
export function functionEnvironment(settings: FunctionSettings): Record<string, string> {
  return {
    [FUNCTION_ENV.stage]: settings.stage,
    [FUNCTION_ENV.tableName]: settings.tableName,
    [FUNCTION_ENV.mailFrom]: settings.mail.from,
    [FUNCTION_ENV.mailTo]: settings.mail.to,
    [FUNCTION_ENV.configurationSet]: settings.configurationSet,
    [FUNCTION_ENV.retentionDays]: String(settings.retentionDays),
    [DELIVERY_ALARM_ENV.minutes]: String(settings.deliveryAlarmHours * 60),
    [ORIGIN_VERIFY_ENV.current]: settings.originSecret,
    [VISITOR_LIMIT_ENV.messages]: String(settings.visitorLimit.messages),
    [VISITOR_LIMIT_ENV.ipv6Network]: String(settings.visitorLimit.ipv6Network),
    [VISITOR_LIMIT_ENV.windowSeconds]: String(settings.visitorLimit.windowSeconds),
  };
}
