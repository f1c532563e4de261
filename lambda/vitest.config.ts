import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'lambda',
    environment: 'node',
    include: ['test/**/*.test.ts'],
    // Outage tests wait for the SDK's own timeouts (2 attempts x 2 s).
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // The tests run on this machine's Node.js; the function runs on the newest Lambda runtime.
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
  },
});
