// Runs the streams service alone, configured by the environment (`npm start -w services/streams`).
import { runApiService } from '@cloud/service-shell';
import { loadStreamsConfig } from './config';
import { createStreamsService } from './service';

runApiService({
  name: 'streams',
  async start() {
    const config = loadStreamsConfig();
    return { service: await createStreamsService(config), port: config.STREAMS_PORT, host: config.STREAMS_HOST };
  },
});
