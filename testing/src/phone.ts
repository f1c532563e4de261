/**
 * The phone the budgets and the early-tap tests describe, as Lighthouse's mobile profile sets it
 * (its `throttling` defaults): the CPU slowed 4× and its slow 4G, a 150 ms round trip, 1.6 Mbps
 * down and 750 kbps up. Applied to a page through the DevTools protocol, so the page really
 * runs and loads that slowly (Lighthouse itself only simulates it from a fast load).
 */
import type { CDPSession } from 'playwright-core';

export const PHONE = {
  cpuSlowdown: 4,
  latencyMs: 150,
  /** Bytes a second: Lighthouse's 1,638.4 and 750 kbit/s of 1,024 bits. */
  downloadBytesPerSecond: (1638.4 * 1024) / 8,
  uploadBytesPerSecond: (750 * 1024) / 8,
} as const;

/** Slows the session's page to the phone's CPU and network; before its first navigation, so the load is the phone's too. */
export async function emulatePhone(cdp: CDPSession): Promise<void> {
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: PHONE.cpuSlowdown });
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: PHONE.latencyMs,
    downloadThroughput: PHONE.downloadBytesPerSecond,
    uploadThroughput: PHONE.uploadBytesPerSecond,
  });
}
