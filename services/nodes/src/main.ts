// Runs the nodes service alone, configured by the environment (`npm start -w services/nodes`).
import { runApiService } from '@cloud/service-shell';
import { loadNodesConfig } from './config';
import { createNodesService } from './service';

runApiService({
  name: 'nodes',
  async start() {
    const config = loadNodesConfig();
    return { service: await createNodesService(config), port: config.NODES_PORT, host: config.NODES_HOST };
  },
});
