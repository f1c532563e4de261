/**
 * Every sentence the contact API answers a visitor with, in Dutch: the function's error
 * answers, and the WAF's 429 (infra), which answers with the function's own words so the
 * page and a script see one kind of refusal. The per-field sentences are in contact-fields.ts.
 */
export const ERROR_TEXT = {
  methodNotAllowed: 'Deze methode is niet toegestaan; verzend het bericht met POST.',
  unsupportedMediaType: 'Verzend het bericht als JSON (Content-Type: application/json).',
  tooLarge: 'Uw bericht is te groot om te verzenden.',
  unreadable: 'Het bericht kon niet worden gelezen.',
  malformedForm: 'Het bericht kon niet worden gelezen: het bevat een veld meer dan eens, of meer velden dan het formulier heeft.',
  invalidFields: 'Controleer de gemarkeerde velden.',
  invalidIdempotencyKey: 'De Idempotency-Key moet een UUID zijn.',
  idempotencyConflict: 'Deze Idempotency-Key is al gebruikt voor een ander bericht.',
  notStored: 'Uw bericht kon nu niet worden opgeslagen. Probeer het over enkele minuten opnieuw.',
  unexpected: 'Er is iets misgegaan. Probeer het over enkele minuten opnieuw.',
  notThroughSite: 'Berichten kunnen alleen via het contactformulier op de website worden verzonden.',
  tooManyMessages: 'U hebt in korte tijd te veel berichten verzonden. Probeer het over enkele minuten opnieuw.',
} as const;
