/** The part of autocannon's programmatic API (v8, lib/run.js) the bench uses; the package ships no types. */
declare module 'autocannon' {
  namespace autocannon {
    interface Request {
      method?: string;
      path?: string;
      body?: string;
      headers?: Record<string, string>;
      /** Called before each send: the request to send instead (autocannon v8 lib/requestIterator.js). */
      setupRequest?: (request: Request) => Request;
    }
    interface Options {
      /** Several URLs: the connections are spread over them in turn. */
      url: string | string[];
      connections?: number;
      duration?: number;
      method?: string;
      headers?: Record<string, string>;
      body?: string;
      /** Each connection sends these in turn, round and round. */
      requests?: Request[];
    }
    interface Result {
      requests: { average: number; total: number };
      latency: { p50: number; p99: number };
      non2xx: number;
      errors: number;
      timeouts: number;
      /** Answers by status code. */
      statusCodeStats?: Record<string, { count: number }>;
    }
  }
  function autocannon(options: autocannon.Options): Promise<autocannon.Result>;
  export = autocannon;
}
