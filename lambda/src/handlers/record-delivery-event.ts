/**
 * Lambda's entry for SES's delivery events (EventBridge, the stage's configuration set; the
 * handler itself: delivery-event-handler.ts). The environment is read and the table's client
 * built on the first event, then kept for the container. A missing setting fails the
 * invocation with an error naming the variable, and Lambda invokes again.
 */
import { createDocumentClient } from '../shared/aws';
import { readDeliveryEventConfig } from '../config';
import { createDeliveryEventHandler, type DeliveryEventHandler } from '../delivery-events/delivery-event-handler';

let built: DeliveryEventHandler | undefined;

export const handler: DeliveryEventHandler = (event, context) => {
  built ??= createDeliveryEventHandler({ config: readDeliveryEventConfig(process.env), clients: { documents: createDocumentClient() } });
  return built(event, context);
};
