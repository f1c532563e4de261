// Placeholder so the stack can bundle this entry while the real job is written.
export async function handler(): Promise<{ delivered: number; deferred: number; failed: number }> {
  return { delivered: 0, deferred: 0, failed: 0 };
}
