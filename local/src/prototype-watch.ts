/**
 * What was added to the built-in prototypes since a moment: a request that managed to set
 * `__proto__.polluted` or `constructor.prototype.x` shows here. For the thread a function
 * runs in (function-thread.ts) and the process the robustness suite runs the stack in.
 */
const PROTOTYPES: Record<string, object> = {
  Object: Object.prototype,
  Array: Array.prototype,
  Function: Function.prototype,
  String: String.prototype,
};

/** Takes the prototypes' keys now; the function returned lists every key added since, as `Object.prototype.polluted`. */
export function watchPrototypes(): () => string[] {
  const baseline = new Map(Object.entries(PROTOTYPES).map(([name, proto]) => [name, new Set(Reflect.ownKeys(proto).map(String))]));
  return () =>
    Object.entries(PROTOTYPES).flatMap(([name, proto]) =>
      Reflect.ownKeys(proto)
        .map(String)
        .filter((key) => !baseline.get(name)!.has(key))
        .map((key) => `${name}.prototype.${key}`),
    );
}
