/**
 * `npm install` runs this once (postinstall): it fetches the embedded Kafka broker's jars with Maven
 * into the cache, so that the first `npm start` does not wait for Maven. Already cached: no-op.
 */
import { ensureKafkaJars, kafkaLibDir } from '../packages/engine/src/broker/kafka-jars.ts';

try {
  const lib = await ensureKafkaJars((line) => console.log(`[weir] ${line}`));
  console.log(`[weir] embedded Kafka jars ready in ${lib}`);
} catch (err) {
  console.error(`[weir] ${(err as Error).message}`);
  console.error(`[weir] the embedded broker needs Java 17 and Maven; jars are cached in ${kafkaLibDir()}`);
  process.exit(1);
}
