package dev.weir.bench;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The reference pipeline in plain Java, as Weir runs it: PARSE_KV (fields in order, canonical
 * numerals as numbers, {@code _raw}), TIMESTAMP of {@code ts} ({@code _time}, epoch ms), eval
 * {@code severity=if(status="failed","high","low"), who=lower(user)}, then every rule in order,
 * one alert (the event plus {@code _rule}) per match, as JSON.
 */
final class Events {
  private static final Pattern CANONICAL = Pattern.compile("-?(0|[1-9][0-9]{0,14})(\\.[0-9]*[1-9])?");
  private final ObjectMapper json = new ObjectMapper();
  private final List<Rules.Rule> rules;

  Events(List<Rules.Rule> rules) {
    this.rules = rules;
  }

  /** A number, or a canonical numeral read as one (PDL's typing); otherwise null. */
  static Double number(Object value) {
    if (value instanceof Number n) return n.doubleValue();
    if (value instanceof String s && CANONICAL.matcher(s).matches() && !s.equals("-0")) return Double.parseDouble(s);
    return null;
  }

  private static Object fromText(String text) {
    if (!CANONICAL.matcher(text).matches() || text.equals("-0")) return text;
    if (text.indexOf('.') < 0) return Long.parseLong(text);
    return Double.parseDouble(text);
  }

  static Map<String, Object> parseKv(String line) {
    Map<String, Object> event = new LinkedHashMap<>();
    int i = 0;
    int n = line.length();
    while (i < n) {
      while (i < n && line.charAt(i) == ' ') i++;
      int eq = line.indexOf('=', i);
      if (eq < 0) break;
      String key = line.substring(i, eq);
      int start = eq + 1;
      String value;
      if (start < n && line.charAt(start) == '"') {
        int end = line.indexOf('"', start + 1);
        if (end < 0) end = n;
        value = line.substring(start + 1, end);
        i = end + 1;
      } else {
        int end = line.indexOf(' ', start);
        if (end < 0) end = n;
        value = line.substring(start, end);
        i = end;
      }
      event.put(key, fromText(value));
    }
    event.put("_raw", line);
    return event;
  }

  /** The alerts of one input line, as JSON. */
  List<String> alerts(String line) {
    Map<String, Object> event = parseKv(line);
    if (event.get("ts") instanceof String ts) event.put("_time", Instant.parse(ts).toEpochMilli());
    event.put("severity", "failed".equals(event.get("status")) ? "high" : "low");
    Object user = event.get("user");
    event.put("who", user instanceof String s ? s.toLowerCase(Locale.ROOT) : null);
    List<String> out = null;
    for (Rules.Rule rule : rules) {
      if (!rule.test().test(event)) continue;
      event.put("_rule", rule.info());
      try {
        if (out == null) out = new ArrayList<>(2);
        out.add(json.writeValueAsString(event));
      } catch (JsonProcessingException e) {
        throw new IllegalStateException(e);
      }
      event.remove("_rule");
    }
    return out == null ? List.of() : out;
  }
}
