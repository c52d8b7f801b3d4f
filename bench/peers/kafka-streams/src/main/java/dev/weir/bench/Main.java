package dev.weir.bench;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Produced;

/**
 * The Kafka Streams peer of bench/engine.ts. {@code Main <raw|passthrough|reference> key=value...}
 * with bootstrap, group (the application id), input, output, alerts, threads, commitIntervalMs,
 * rules (the JSON file), stateDir. Runs until SIGTERM or the end of its standard input.
 */
public final class Main {
  private Main() {}

  public static void main(String[] args) throws IOException, InterruptedException {
    // stdin is the bench's pipe: when the bench goes away, so does the peer (the shutdown hooks run)
    Thread watchdog = new Thread(() -> {
      try {
        while (System.in.read() >= 0) {
          // nothing is sent
        }
      } catch (IOException ignored) {
        // closed
      }
      System.exit(0);
    });
    watchdog.setDaemon(true);
    watchdog.start();
    String mode = args[0];
    Map<String, String> o = new HashMap<>();
    for (int i = 1; i < args.length; i++) {
      int eq = args[i].indexOf('=');
      o.put(args[i].substring(0, eq), args[i].substring(eq + 1));
    }
    if (mode.equals("raw")) {
      RawLoop.run(o.get("bootstrap"), o.get("group"), o.get("input"), o.get("output"));
      return;
    }
    StreamsBuilder builder = new StreamsBuilder();
    if (mode.equals("passthrough")) {
      builder.stream(o.get("input"), Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()))
          .to(o.get("output"), Produced.with(Serdes.ByteArray(), Serdes.ByteArray()));
    } else if (mode.equals("reference")) {
      Events events = new Events(Rules.load(o.get("rules")));
      KStream<String, String> alerts = builder.stream(o.get("input"), Consumed.with(Serdes.String(), Serdes.String()))
          .flatMapValues(events::alerts);
      alerts.to(o.get("output"), Produced.with(Serdes.String(), Serdes.String()));
      alerts.to(o.get("alerts"), Produced.with(Serdes.String(), Serdes.String()));
    } else {
      throw new IllegalArgumentException("mode: raw, passthrough or reference, not " + mode);
    }
    Properties p = new Properties();
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, o.get("group"));
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, o.get("bootstrap"));
    p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, o.getOrDefault("threads", "2"));
    // commitIntervalMs=default leaves Kafka Streams' own default (30 s at at-least-once)
    String commitInterval = o.getOrDefault("commitIntervalMs", "100");
    if (!commitInterval.equals("default")) p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, commitInterval);
    p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.AT_LEAST_ONCE);
    p.put(StreamsConfig.STATE_DIR_CONFIG, o.get("stateDir"));
    p.put("auto.offset.reset", "earliest");
    KafkaStreams streams = new KafkaStreams(builder.build(), p);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      streams.close();
      stopped.countDown();
    }));
    streams.setUncaughtExceptionHandler(e -> {
      e.printStackTrace();
      return org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
    });
    streams.start();
    System.out.println("STARTED " + List.of(mode));
    stopped.await();
  }
}
