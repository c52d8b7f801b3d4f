package dev.weir.bench;

import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/** The raw loop: consume → produce the same bytes (idempotent, acks=all) → flush → commit, per poll, one thread. */
final class RawLoop {
  private RawLoop() {}

  static void run(String bootstrap, String group, String input, String output) {
    Properties c = new Properties();
    c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    c.put(ConsumerConfig.GROUP_ID_CONFIG, group);
    c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    AtomicBoolean running = new AtomicBoolean(true);
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer());
         KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
      Thread main = Thread.currentThread();
      Runtime.getRuntime().addShutdownHook(new Thread(() -> {
        running.set(false);
        consumer.wakeup();
        try {
          main.join(10_000);
        } catch (InterruptedException ignored) {
          Thread.currentThread().interrupt();
        }
      }));
      consumer.subscribe(List.of(input));
      System.out.println("STARTED");
      while (running.get()) {
        ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(200));
        if (records.isEmpty()) continue;
        for (ConsumerRecord<byte[], byte[]> r : records) producer.send(new ProducerRecord<>(output, null, r.timestamp(), r.key(), r.value()));
        producer.flush();
        consumer.commitSync();
      }
    } catch (WakeupException stopping) {
      // closed by the shutdown hook
    }
  }
}
