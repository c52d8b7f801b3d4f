/**
 * The layers of docs/architecture.md, checked: no import cycle between the folders of
 * packages/engine/src. Every relative import (type-only ones too) is an edge from the importing
 * file's folder to the imported file's folder; a file directly in src/ is a node of its own
 * (`errors.ts`, `node.ts`, …), so the top (node, api) and the bottom (errors) may both live there.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

const src = path.resolve(import.meta.dirname, '../../src');

/**
 * Edges that still close a cycle and may only be removed, never added (each names who removes it).
 * Empty today; the test fails when an entry is no longer needed, so the list can only shrink.
 */
const allowedCycleEdges: readonly string[] = [];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? sourceFiles(full) : name.endsWith('.ts') ? [full] : [];
  });
}

/** `auth/tokens.ts` → `auth`; `errors.ts` → `errors.ts` (relative to `root`, src by default). */
function nodeOf(file: string, root = src): string {
  const rel = path.relative(root, file).split(path.sep);
  return rel[0]!;
}

const importPattern =
  /(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*['"](\.{1,2}\/[^'"]+)['"]|(?:^|\n)\s*import\s*['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

/** folder → folder → one example import (`from → to`), for the message; the folders of `root` (src by default). */
function folderGraph(root = src): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const file of sourceFiles(root)) {
    const from = nodeOf(file, root);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(importPattern)) {
      const spec = m[1] ?? m[2] ?? m[3]!;
      const target = path.resolve(path.dirname(file), spec);
      if (!target.startsWith(root + path.sep)) continue;
      const to = nodeOf(target, root);
      if (to === from) continue;
      const edges = graph.get(from) ?? new Map<string, string>();
      if (!edges.has(to)) edges.set(to, `${path.relative(src, file)} → ${path.relative(src, target)}`);
      graph.set(from, edges);
    }
  }
  return graph;
}

/** Strongly connected components with more than one node (Tarjan). */
function cycles(graph: Map<string, Map<string, string>>, skip: ReadonlySet<string>): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const nodes = new Set([...graph.keys(), ...[...graph.values()].flatMap((e) => [...e.keys()])]);
  const visit = (v: string) => {
    indices.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)?.keys() ?? []) {
      if (skip.has(`${v} -> ${w}`)) continue;
      if (!indices.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, indices.get(w)!));
      }
    }
    if (low.get(v) === indices.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) out.push(component.sort());
    }
  };
  for (const v of [...nodes].sort()) if (!indices.has(v)) visit(v);
  return out;
}

test('no import cycle between the folders of packages/engine/src', () => {
  const graph = folderGraph();
  const found = cycles(graph, new Set(allowedCycleEdges));
  const describe = (component: string[]) =>
    component
      .flatMap((from) =>
        [...(graph.get(from) ?? [])]
          .filter(([to]) => component.includes(to))
          .map(([to, example]) => `${from} -> ${to} (${example})`),
      )
      .join('\n  ');
  assert.deepEqual(found.map(describe), [], 'folders that import each other in a cycle');
});

test('the stream runtime is stages: no stage folder imports another, and no cycle among stream/ (docs/architecture.md)', () => {
  const stream = path.join(src, 'stream');
  const graph = folderGraph(stream);
  const stages = ['process', 'sink', 'source', 'state'];
  const between = stages.flatMap((from) =>
    [...(graph.get(from) ?? [])].filter(([to]) => stages.includes(to)).map(([, example]) => example),
  );
  assert.deepEqual(between, [], 'a stage imports another stage (the worker loop passes data between them)');
  assert.deepEqual(cycles(graph, new Set()), [], 'files and folders of stream/ that import each other in a cycle');
});

test('every allowed cycle edge still exists and is still needed (the list only shrinks)', () => {
  const graph = folderGraph();
  for (const edge of allowedCycleEdges) {
    const [from, to] = edge.split(' -> ') as [string, string];
    assert.ok(graph.get(from)?.has(to), `${edge} is gone: remove it from allowedCycleEdges`);
    const without = new Set(allowedCycleEdges.filter((e) => e !== edge));
    assert.notDeepEqual(
      cycles(graph, without),
      [],
      `${edge} no longer closes a cycle: remove it from allowedCycleEdges`,
    );
  }
});

test('the check sees a cycle when there is one', () => {
  const graph = new Map([
    ['a', new Map([['b', 'a/x.ts → b/y.ts']])],
    ['b', new Map([['a', 'b/y.ts → a/x.ts']])],
  ]);
  assert.deepEqual(cycles(graph, new Set()), [['a', 'b']]);
  assert.deepEqual(cycles(graph, new Set(['b -> a'])), []);
});
