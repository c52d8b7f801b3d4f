/**
 * The layers of docs/architecture.md, checked: no import cycle between the folders of
 * packages/engine/src (nor of packages/contract/src). Every relative import (type-only ones too)
 * is an edge from the importing file's folder to the imported file's folder; a file directly in
 * src/ is a node of its own (`errors.ts`, `node.ts`, …), so the top (node, api) and the bottom
 * (errors) may both live there. Between the packages: nothing outside the engine imports
 * packages/engine/src, the contract imports nothing (pure data and types), and every workspace
 * package a package imports is declared in its package.json.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

const packages = path.resolve(import.meta.dirname, '../../..');
const engineSrc = path.join(packages, 'engine', 'src');
const contractSrc = path.join(packages, 'contract', 'src');

/**
 * Edges that still close a cycle and may only be removed, never added (each names who removes it).
 * Empty today; the test fails when an entry is no longer needed, so the list can only shrink.
 */
const allowedCycleEdges: readonly string[] = [];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (name === 'node_modules' || name === 'dist') return [];
    return statSync(full).isDirectory() ? sourceFiles(full) : /\.tsx?$/.test(name) ? [full] : [];
  });
}

/** `auth/tokens.ts` → `auth`; `errors.ts` → `errors.ts`. */
function nodeOf(src: string, file: string): string {
  const rel = path.relative(src, file).split(path.sep);
  return rel[0]!;
}

const importPattern =
  /(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*['"](\.{1,2}\/[^'"]+)['"]|(?:^|\n)\s*import\s*['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

/** folder → folder → one example import (`from → to`), for the message. */
function folderGraph(src = engineSrc): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const file of sourceFiles(src)) {
    const from = nodeOf(src, file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(importPattern)) {
      const spec = m[1] ?? m[2] ?? m[3]!;
      const target = path.resolve(path.dirname(file), spec);
      if (!target.startsWith(src + path.sep)) continue;
      const to = nodeOf(src, target);
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

test('no import cycle between the folders of packages/contract/src', () => {
  assert.deepEqual(cycles(folderGraph(contractSrc), new Set()), []);
});

/** Every import specifier of a file: relative, package and node: ones. */
const anyImport =
  /(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*['"]([^'"]+)['"]|(?:^|\n)\s*import\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
function importsOf(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(anyImport)].map((m) => m[1] ?? m[2] ?? m[3]!);
}

test('nothing outside the engine imports packages/engine/src', () => {
  const outside = readdirSync(packages)
    .filter((p) => p !== 'engine' && statSync(path.join(packages, p)).isDirectory())
    .flatMap((p) => sourceFiles(path.join(packages, p)));
  const found = outside.flatMap((file) =>
    importsOf(file)
      .filter((spec) => spec.startsWith('.'))
      .map((spec) => path.resolve(path.dirname(file), spec))
      .filter((target) => target.startsWith(engineSrc + path.sep))
      .map((target) => `${path.relative(packages, file)} → ${path.relative(packages, target)}`),
  );
  assert.deepEqual(found, []);
});

test('the contract is pure: it imports nothing outside packages/contract/src (no Node, no engine)', () => {
  const found = sourceFiles(contractSrc).flatMap((file) =>
    importsOf(file)
      .filter((spec) => !spec.startsWith('./') || !path.resolve(path.dirname(file), spec).startsWith(contractSrc))
      .map((spec) => `${path.relative(packages, file)} → ${spec}`),
  );
  assert.deepEqual(found, []);
});

test("every workspace package a package's sources import is declared in its package.json", () => {
  const undeclared: string[] = [];
  for (const name of readdirSync(packages)) {
    const manifest = path.join(packages, name, 'package.json');
    if (!statSync(path.join(packages, name)).isDirectory()) continue;
    const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { name: string; dependencies?: Record<string, string> };
    const declared = new Set([pkg.name, ...Object.keys(pkg.dependencies ?? {})]);
    for (const dir of ['src', 'server'].map((d) => path.join(packages, name, d))) {
      if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) continue;
      for (const file of sourceFiles(dir))
        for (const spec of importsOf(file)) {
          const workspace = /^(@weir\/[^/]+)/.exec(spec)?.[1];
          if (workspace && !declared.has(workspace)) undeclared.push(`${path.relative(packages, file)} → ${workspace}`);
        }
    }
  }
  assert.deepEqual(undeclared, []);
});
