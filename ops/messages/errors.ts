/** A refusal or failure with its own sentence; the command exits 1. */
export class CommandError extends Error {}
