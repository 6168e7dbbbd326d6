// The platform `npm start` runs (every service in one process, PGlite, the in-process bus, local
// dev nodes), configured as startTestPlatform configures it (ports the system picks, BCRYPT_ROUNDS
// 4), but in a process of its own and logging at debug level to its stdout, so the suite can read
// back everything the platform logged. It also records every bus message (events, usage, routes)
// as a JSON line, and says where it listens in `<runDir>/ready.json`. SIGTERM stops it; its data
// directory stays for the suite to read (the suite removes it).
//
//   node --conditions=@cloud/source -r @cloud/jest-preset/run-typescript.cjs platform-process.ts <runDir>
import { appendFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startPlatform } from '@cloud/all-in-one';
import { ANY_PORTS } from '@cloud/all-in-one/testing';

const runDir = process.argv[2];
if (!runDir) throw new Error('usage: platform-process.ts <runDir>');

async function main(): Promise<void> {
  const platform = await startPlatform({
    ...process.env,
    DATA_DIR: path.join(runDir!, 'data'),
    LOG_LEVEL: 'debug',
    BCRYPT_ROUNDS: '4',
    SIGNUP_MAX_PER_ADDRESS: '1000',
    PASSWORD_RESET_MAX_PER_ADDRESS: '1000',
    // Its nodes stop with it: the suite leaves no process behind.
    STOP_NODES_ON_SHUTDOWN: 'true',
    // Usage reaches the bus (and the nodes service) every second, not every minute.
    PROXY_USAGE_INTERVAL_MS: '1000',
    ...ANY_PORTS,
  });
  const busFile = path.join(runDir!, 'bus.jsonl');
  await platform.bus.subscribe({
    name: 'e2e-real-clients-recorder',
    bindings: ['#'],
    batchSize: 100,
    handle: (messages) => {
      appendFileSync(busFile, messages.map((each) => `${JSON.stringify(each)}\n`).join(''));
      return Promise.resolve();
    },
  });
  let stopping = false;
  process.on('SIGTERM', () => {
    if (stopping) return;
    stopping = true;
    platform.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`the platform did not stop cleanly: ${String(error)}\n`);
        process.exit(1);
      },
    );
  });
  const { urls, proxy } = platform;
  writeFileSync(
    path.join(runDir!, 'ready.json'),
    JSON.stringify({
      urls,
      dataDir: path.join(runDir!, 'data'),
      proxy: { ports: proxy.ports, adminUrl: proxy.adminUrl, scheme: proxy.scheme, certificate: proxy.certificate },
    }),
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`the platform failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
