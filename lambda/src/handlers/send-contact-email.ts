/**
 * Lambda's entry for POST /api/send-contact-email (the handler itself: contact-handler.ts).
 * The environment is read and the clients are built on the first request, then kept for the
 * container: nothing but module loading happens at a cold start's import. A missing or
 * invalid setting answers every request 503 and names the variable in the log, and is read
 * again on the next request.
 */
import { createAwsClients } from '../shared/aws';
import { metricsStage, readContactConfig, type ContactConfig } from '../config';
import type { ContactHandler } from '../contact/contact-answer';
import { createContactHandler, unconfiguredContactHandler } from '../contact/contact-handler';

let built: ContactHandler | undefined;

export const handler: ContactHandler = (event, context) => {
  if (built === undefined) {
    let config: ContactConfig;
    try {
      config = readContactConfig(process.env);
    } catch (error) {
      return unconfiguredContactHandler(error, metricsStage(process.env))(event, context);
    }
    built = createContactHandler({ config, clients: createAwsClients() });
  }
  return built(event, context);
};

// The parts, for running this bundle elsewhere than in Lambda (the bench: the same code with clients of its own).
export { createAwsClients } from '../shared/aws';
export { readContactConfig } from '../config';
export { createContactHandler } from '../contact/contact-handler';
