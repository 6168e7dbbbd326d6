/**
 * The streams benchmark (issue 32), two sections:
 * - `deliveries`: events per second from the database to a local receiver: STREAM_EVENTS (20,000)
 *   pending block events of one stream delivered by StreamDelivery in batches of
 *   STREAMS_BATCH_EVENTS (the service's default, 100). Goal ≥ 2,000 events/s. On PostgreSQL when
 *   DATABASE_URL is set (a fresh database, dropped after), else PGlite.
 * - `latency`: block-to-delivery latency p50/p99 on an anvil node mining a block a second, the
 *   platform in this process; LATENCY_SECONDS (60) of blocks, the node's head read every POLL_MS
 *   (20). Goal p50 ≤ 300 ms after the node has the block.
 *
 *   npm run bench:streams                                  # from the repository root
 *   SECTIONS=deliveries STREAM_EVENTS=50000 DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:streams
 *
 * Markdown goes to stdout, progress to stderr.
 */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { integerSetting, listSetting } from '../proxy/settings';
import { deliveriesSection } from './deliveries';
import { latencySection } from './latency';

const SECTIONS = listSetting('SECTIONS', ['deliveries', 'latency'] as const);
const STREAM_EVENTS = integerSetting('STREAM_EVENTS', 20_000);
const LATENCY_SECONDS = integerSetting('LATENCY_SECONDS', 60);
const POLL_MS = integerSetting('POLL_MS', 20);

const print = (line = '') => process.stdout.write(`${line}\n`);
const progress = (line: string) => process.stderr.write(`${line}\n`);

function machineLine(): string {
  let cpu = os.cpus()[0]?.model.trim() ?? 'unknown';
  try {
    cpu = /^Model name:\s*(.+)$/m.exec(execFileSync('lscpu', { encoding: 'utf8' }))?.[1]?.trim() ?? cpu;
  } catch {
    // no lscpu: the model Node reports
  }
  return `${os.cpus().length} × ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node.js ${process.version}, ${os.type()} ${os.release()}`;
}

async function main(): Promise<void> {
  print(
    `Machine: ${machineLine()}; load average ${os
      .loadavg()
      .map((value) => value.toFixed(2))
      .join(', ')} at the start.`,
  );
  if (SECTIONS.includes('deliveries')) {
    progress(`deliveries: ${STREAM_EVENTS} events`);
    const d = await deliveriesSection(STREAM_EVENTS);
    print('\n| deliveries to a local receiver | events | batch | seconds | events/s | POSTs | database |\n|---|---|---|---|---|---|---|');
    print(
      `| StreamDelivery, one stream | ${d.events} | ${d.batchEvents} | ${d.seconds.toFixed(2)} | **${Math.round(d.eventsPerSecond)}** | ${d.posts} | ${d.database} |`,
    );
  }
  if (SECTIONS.includes('latency')) {
    progress(`latency: ${LATENCY_SECONDS} s of 1-second blocks`);
    const l = await latencySection(LATENCY_SECONDS, POLL_MS, progress);
    print('\n| block to delivery (anvil, a block a second) | blocks | p50 | p99 | max | head read every | bench poll |\n|---|---|---|---|---|---|---|');
    print(
      `| the platform in one process | ${l.blocks} | **${l.p50Ms.toFixed(0)} ms** | ${l.p99Ms.toFixed(0)} ms | ${l.maxMs.toFixed(0)} ms | ${l.headIntervalMs} ms | ${l.pollMs} ms |`,
    );
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`streams benchmark failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
