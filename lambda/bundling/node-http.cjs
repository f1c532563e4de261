// Substituted for `node:http` in the Lambda bundle (see bundle.ts). Node's ES-module facade
// of node:http reads every export when it is imported, and a few of them (WebSocket,
// EventSource, ...) are getters that load undici, Node's fetch: about 20 ms of every cold
// start for code the function never runs. Taken as a plain object, nothing is read early.
module.exports = process.getBuiltinModule('node:http');
