/** The part of autocannon 8's API the proxy benchmark uses (the package ships no types). */
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  namespace autocannon {
    interface Options {
      url: string;
      connections?: number;
      duration?: number;
      pipelining?: number;
      method?: 'GET' | 'POST';
      headers?: Record<string, string>;
      body?: string;
      /** Requests per second over all connections; unset: as fast as they go. */
      overallRate?: number;
      timeout?: number;
      workers?: number;
      /** TLS server name of an https URL (SNI); autocannon does not check the certificate. */
      servername?: string;
      /** Requests each connection sends in turn; `setupRequest` may rewrite one (its body) before each send. */
      requests?: { setupRequest?: (request: RequestData) => RequestData }[];
    }

    interface RequestData {
      body?: string | Buffer;
      [key: string]: unknown;
    }

    interface Histogram {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      total: number;
      p50: number;
      p99: number;
    }

    interface Result {
      duration: number;
      requests: Histogram & { sent: number };
      latency: Histogram;
      errors: number;
      timeouts: number;
      non2xx: number;
      mismatches: number;
      resets: number;
    }

    interface Instance extends EventEmitter {
      stop(): void;
    }
  }

  function autocannon(options: autocannon.Options, callback: (error: Error | null, result: autocannon.Result) => void): autocannon.Instance;

  export = autocannon;
}
