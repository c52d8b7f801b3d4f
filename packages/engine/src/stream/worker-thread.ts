import { parentPort, workerData } from 'node:worker_threads';
import { setOutputNames } from '@weir/pdl';
import { kafkaConnectionFrom } from '../kafka/client-options.ts';
import { lookupIndexClient } from '../rules/lookup-index-server.ts';
import { StreamWorker } from './stream-worker.ts';
import type { FromWorker, ToWorker, WorkerInit } from './worker-protocol.ts';

/** The entry of a stream worker thread: wires a StreamWorker to the engine's messages. */
const port = parentPort!;
const send = (message: FromWorker) => port.postMessage(message);
const { bootstrapServers, kafkaClient, outputNames, lookupIndexes, ...init } = workerData as WorkerInit;
setOutputNames(outputNames);
const worker = new StreamWorker({
  ...init,
  connection: kafkaConnectionFrom(bootstrapServers, kafkaClient, init.clientId),
  ...(lookupIndexes ? { lookupIndexes: lookupIndexClient(lookupIndexes) } : {}),
  onState: (state) => send({ type: 'state', state }),
  onLog: (level, message) => send({ type: 'log', level, message }),
  onWarnings: (warnings) => send({ type: 'warnings', warnings }),
});

setInterval(() => send({ type: 'stats', report: worker.stats.drain() }), 1000);
setInterval(() => void worker.measureLag(), 5000);
setInterval(() => void worker.checkRetention(), 5000);

port.on('message', (message: ToWorker) => {
  switch (message.type) {
    case 'configure':
      worker.configure(message.snapshot);
      break;
    case 'start':
      worker.start();
      break;
    case 'stop':
      void worker.stop().then(() => {
        send({ type: 'stats', report: worker.stats.drain() });
        send({ type: 'stopped' });
      });
      break;
  }
});

process.on('unhandledRejection', (err) =>
  send({ type: 'log', level: 'error', message: `unhandled: ${String((err as Error)?.stack ?? err)}` }),
);
