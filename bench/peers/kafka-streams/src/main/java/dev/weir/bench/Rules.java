package dev.weir.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * The bench's rules, read from the JSON file bench/engine.ts writes (the same conditions it turns into
 * PDL for Weir), each compiled to a Java predicate with PDL's semantics. Checked one by one: no index.
 */
final class Rules {
  /** One rule: all its conditions must hold; {@code info} is the alert's {@code _rule}. */
  record Rule(Predicate<Map<String, Object>> test, Map<String, Object> info) {}

  private Rules() {}

  static List<Rule> load(String path) throws IOException {
    JsonNode root = new ObjectMapper().readTree(new File(path));
    List<Rule> rules = new ArrayList<>();
    for (JsonNode r : root) {
      Predicate<Map<String, Object>> all = e -> true;
      for (JsonNode c : r.get("conditions")) all = all.and(condition(c));
      Map<String, Object> info = new LinkedHashMap<>();
      info.put("id", r.get("id").asText());
      info.put("name", r.get("name").asText());
      List<String> annotations = new ArrayList<>();
      for (JsonNode a : r.get("annotations")) annotations.add(a.asText());
      info.put("annotations", annotations);
      rules.add(new Rule(all, info));
    }
    return rules;
  }

  private static Predicate<Map<String, Object>> condition(JsonNode c) {
    String field = c.get("field").asText();
    JsonNode value = c.get("value");
    switch (c.get("op").asText()) {
      case "eq": {
        Predicate<String> eq = equal(value.asText());
        return e -> e.get(field) instanceof String s && eq.test(s);
      }
      case "in": {
        List<Predicate<String>> any = new ArrayList<>();
        for (JsonNode v : value) any.add(equal(v.asText()));
        return e -> {
          if (!(e.get(field) instanceof String s)) return false;
          for (Predicate<String> p : any) if (p.test(s)) return true;
          return false;
        };
      }
      case "contains": {
        String part = value.asText();
        return e -> e.get(field) instanceof String s && s.contains(part);
      }
      case "regex": {
        Pattern pattern = Pattern.compile(value.asText());
        return e -> e.get(field) instanceof String s && pattern.matcher(s).find();
      }
      case "eqNumber": {
        double n = value.asDouble();
        return e -> {
          Double d = Events.number(e.get(field));
          return d != null && d == n;
        };
      }
      case "gt": {
        double n = value.asDouble();
        return e -> {
          Double d = Events.number(e.get(field));
          return d != null && d > n;
        };
      }
      default:
        throw new IllegalArgumentException("unknown condition op " + c.get("op"));
    }
  }

  /** PDL string equality: {@code *} matches any run of characters. */
  private static Predicate<String> equal(String pattern) {
    if (pattern.indexOf('*') < 0) return pattern::equals;
    String[] parts = pattern.split("\\*", -1);
    return s -> {
      if (!s.startsWith(parts[0])) return false;
      int at = parts[0].length();
      for (int i = 1; i < parts.length - 1; i++) {
        int found = s.indexOf(parts[i], at);
        if (found < 0) return false;
        at = found + parts[i].length();
      }
      String last = parts[parts.length - 1];
      return s.length() - last.length() >= at && s.endsWith(last);
    };
  }
}
