/**
 * A stand-in's address for one test file that can fail as an endpoint fails: refuse every
 * connection (stopped), take connections and never answer (hung), or work again. A TCP proxy
 * in front of the shared stand-in, so one file's outage is nobody else's.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import { LOOPBACK, loopbackUrl } from '@site/emulators/connections';

export interface FaultSwitch {
  url: string;
  /** Refuses connections from now on, and cuts the open ones. */
  stop: () => Promise<void>;
  /** Takes connections and requests but never answers, as a stuck endpoint does. */
  hang: () => Promise<void>;
  /** Passes everything through again, on the same port. */
  start: () => Promise<void>;
  /** Requests (connections) taken while hung. */
  hungRequests: () => number;
  close: () => Promise<void>;
}

export async function faultSwitch(target: string): Promise<FaultSwitch> {
  const { hostname, port: targetPort } = new URL(target);
  const sockets = new Set<Socket>();
  let mode: 'through' | 'hung' = 'through';
  let hungRequests = 0;
  let server: Server | undefined;
  let port = 0;

  const serve = (client: Socket) => {
    sockets.add(client);
    client.once('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    if (mode === 'hung') {
      hungRequests += 1;
      client.resume();
      return;
    }
    const upstream = connect(Number(targetPort), hostname);
    sockets.add(upstream);
    upstream.once('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.pipe(upstream).pipe(client);
  };
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = createServer(serve);
      server.once('error', reject);
      server.listen(port, LOOPBACK, () => {
        port = (server!.address() as { port: number }).port;
        resolve();
      });
    });
  const shut = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      if (!server) return resolve();
      server.close(() => resolve());
      server = undefined;
    });

  await listen();
  return {
    url: loopbackUrl(port),
    stop: shut,
    async hang() {
      await shut();
      mode = 'hung';
      hungRequests = 0;
      await listen();
    },
    async start() {
      await shut();
      mode = 'through';
      await listen();
    },
    hungRequests: () => hungRequests,
    close: shut,
  };
}
