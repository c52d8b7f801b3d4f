import http from 'node:http';
import https from 'node:https';

export interface ServerSentEvent {
  readonly event: string;
  readonly data: string;
}

export interface EventStream {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  /** The events as they arrive (comments such as keep-alives skipped); ends when the server ends the stream. */
  readonly events: AsyncIterable<ServerSentEvent>;
  /** The whole body, once the stream ended (for an answer that is not a stream: its JSON text). */
  readonly text: () => Promise<string>;
  /** Closes the connection (the client goes away). */
  close(): void;
}

const agent = new https.Agent({ rejectUnauthorized: false });

/**
 * A GET of a server-sent event stream over real HTTP(S) (the self-signed certificate accepted),
 * read incrementally: each event is yielded when its blank line arrives, so a test can act in the
 * middle of a stream.
 */
export function openEventStream(baseUrl: string, path: string, token?: string): Promise<EventStream> {
  const url = new URL(path, baseUrl);
  const lib = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = lib.request(
      url,
      {
        method: 'GET',
        headers: { accept: 'text/event-stream', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        ...(url.protocol === 'https:' ? { agent } : {}),
      },
      (res) => {
        res.setEncoding('utf8');
        let whole = '';
        const ended = new Promise<void>((done) => res.on('end', done).on('close', done));
        async function* events(): AsyncGenerator<ServerSentEvent> {
          let buffer = '';
          for await (const chunk of res as AsyncIterable<string>) {
            whole += chunk;
            buffer += chunk;
            for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
              const block = buffer.slice(0, end);
              buffer = buffer.slice(end + 2);
              let event = 'message';
              const data: string[] = [];
              for (const line of block.split('\n')) {
                if (line.startsWith(':')) continue;
                if (line.startsWith('event: ')) event = line.slice(7);
                else if (line.startsWith('data: ')) data.push(line.slice(6));
              }
              if (data.length > 0) yield { event, data: data.join('\n') };
            }
          }
        }
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          events: events(),
          text: async () => {
            for await (const chunk of res as AsyncIterable<string>) whole += chunk;
            await ended;
            return whole;
          },
          close: () => req.destroy(),
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}
