/**
 * The layers of docs/architecture.md, checked: no import cycle between the folders of any
 * package's `src`. Every relative import (type-only ones too) is an edge from the importing file's
 * folder to the imported file's folder, within one package (`@weir/…` imports go between packages,
 * whose dependencies package.json declares).
 *
 * Two rules, each for every package under packages/ (one with a `src` folder) but those of
 * `notChecked`:
 * - the folders of `src`, a file directly in src/ a node of its own (`errors.ts`, `node.ts`, …):
 *   root files that import each other in a circle fail (sigma's `convert.ts` and `correlation.ts`
 *   did);
 * - the folders of `src`, the src root counting as one folder (issue 20: "counting each `src` root
 *   as a folder of its own"): a root file above a folder and another below it fail; the packages
 *   of `rootInCycle` are not held to it yet.
 *
 * Between the packages: nothing outside the engine imports packages/engine/src, the contract
 * imports nothing (pure data and types), and every workspace package a package imports is declared
 * in its package.json.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

const packagesDir = path.resolve(import.meta.dirname, '../../..');

/** Packages not checked, and why; the list only shrinks (a test fails when one has no cycle left). */
const notChecked: Readonly<Record<string, string>> = {};

/**
 * Packages whose src root, counted as one folder, still closes a cycle, and who removes it; they
 * are checked with each root file as a node of its own. The list only shrinks.
 */
const rootInCycle: Readonly<Record<string, string>> = {};

/**
 * Edges (`<package>: <from> -> <to>`, root files as nodes of their own) that still close a cycle
 * and may only be removed, never added (each names who removes it). Empty today; the test fails
 * when an entry is no longer needed, so the list can only shrink.
 */
const allowedCycleEdges: readonly string[] = [];

/** Every package with a `src` folder, but those of notChecked. */
const checkedPackages = readdirSync(packagesDir)
  .filter((name) => existsSync(path.join(packagesDir, name, 'src')) && !Object.hasOwn(notChecked, name))
  .sort();

type Graph = Map<string, Map<string, string>>;

/** How the files directly in src/ count: each a node of its own, or all of them one folder (`.`). */
type RootRule = 'root files' | 'root folder';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [full] : [];
  });
}

/** `auth/tokens.ts` → `auth`; `errors.ts` → `errors.ts` (root files) or `.` (root folder). */
function nodeOf(src: string, file: string, rule: RootRule): string {
  const rel = path.relative(src, file).split(path.sep);
  return rel.length === 1 && rule === 'root folder' ? '.' : rel[0]!;
}

const importPattern =
  /(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*['"](\.{1,2}\/[^'"]+)['"]|(?:^|\n)\s*import\s*['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

/** folder → folder → one example import (`from → to`), for the message. */
function folderGraph(pkg: string, rule: RootRule): Graph {
  return folderGraphAt(path.join(packagesDir, pkg, 'src'), rule);
}

/** The same graph for any folder of sources (`src` or one of its folders). */
function folderGraphAt(src: string, rule: RootRule): Graph {
  const graph: Graph = new Map();
  for (const file of sourceFiles(src)) {
    const from = nodeOf(src, file, rule);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(importPattern)) {
      const spec = m[1] ?? m[2] ?? m[3]!;
      const target = path.resolve(path.dirname(file), spec);
      if (!target.startsWith(src + path.sep)) continue;
      const to = nodeOf(src, target, rule);
      if (to === from) continue;
      const edges = graph.get(from) ?? new Map<string, string>();
      if (!edges.has(to)) edges.set(to, `${path.relative(src, file)} → ${path.relative(src, target)}`);
      graph.set(from, edges);
    }
  }
  return graph;
}

/** Strongly connected components with more than one node (Tarjan). */
function cycles(graph: Graph, skip: ReadonlySet<string>): string[][] {
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

/** The allowed edges of one package, as `from -> to`. */
const allowedIn = (pkg: string): Set<string> =>
  new Set(allowedCycleEdges.filter((e) => e.startsWith(`${pkg}: `)).map((e) => e.slice(pkg.length + 2)));

/** The cycles of the graph, each with its edges and an example import of each. */
function describeCycles(graph: Graph, skip: ReadonlySet<string>): string[] {
  return cycles(graph, skip).map((component) =>
    component
      .flatMap((from) =>
        [...(graph.get(from) ?? [])]
          .filter(([to]) => component.includes(to))
          .map(([to, example]) => `${from} -> ${to} (${example})`),
      )
      .join('\n  '),
  );
}

test('the packages checked: every package with a src folder but the listed ones', () => {
  for (const pkg of ['engine', 'pdl', 'sigma', 'client', 'contract']) assert.ok(checkedPackages.includes(pkg), pkg);
  for (const pkg of [...Object.keys(notChecked), ...Object.keys(rootInCycle)])
    assert.ok(existsSync(path.join(packagesDir, pkg, 'src')), `packages/${pkg}/src is gone: remove it from the lists`);
});

for (const pkg of checkedPackages) {
  test(`no import cycle between the folders of packages/${pkg}/src (each root file a node of its own)`, () => {
    const found = describeCycles(folderGraph(pkg, 'root files'), allowedIn(pkg));
    assert.deepEqual(found, [], `folders (and root files) of packages/${pkg}/src that import each other in a cycle`);
  });

  if (Object.hasOwn(rootInCycle, pkg)) continue;
  test(`no import cycle between the folders of packages/${pkg}/src, its root counted as one folder (.)`, () => {
    const found = describeCycles(folderGraph(pkg, 'root folder'), new Set());
    assert.deepEqual(found, [], `folders of packages/${pkg}/src that import each other in a cycle`);
  });
}

test('every listed package still has its cycle (notChecked and rootInCycle only shrink)', () => {
  for (const pkg of [...Object.keys(notChecked), ...Object.keys(rootInCycle)]) {
    assert.notDeepEqual(
      cycles(folderGraph(pkg, 'root folder'), new Set()),
      [],
      `packages/${pkg}/src has no cycle left with its root counted as one folder: remove it from the list`,
    );
  }
});

test('the stream runtime is stages: no stage folder imports another, and no cycle among stream/ (docs/architecture.md)', () => {
  const graph = folderGraphAt(path.join(packagesDir, 'engine', 'src', 'stream'), 'root files');
  const stages = ['process', 'sink', 'source', 'state'];
  const between = stages.flatMap((from) =>
    [...(graph.get(from) ?? [])].filter(([to]) => stages.includes(to)).map(([, example]) => example),
  );
  assert.deepEqual(between, [], 'a stage imports another stage (the worker loop passes data between them)');
  assert.deepEqual(cycles(graph, new Set()), [], 'files and folders of stream/ that import each other in a cycle');
});

test('every allowed cycle edge still exists and is still needed (the list only shrinks)', () => {
  for (const entry of allowedCycleEdges) {
    const [pkg, edge] = entry.split(': ') as [string, string];
    const [from, to] = edge.split(' -> ') as [string, string];
    const graph = folderGraph(pkg, 'root files');
    assert.ok(graph.get(from)?.has(to), `${entry} is gone: remove it from allowedCycleEdges`);
    const without = new Set([...allowedIn(pkg)].filter((e) => e !== edge));
    assert.notDeepEqual(
      cycles(graph, without),
      [],
      `${entry} no longer closes a cycle: remove it from allowedCycleEdges`,
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

const engineSrc = path.join(packagesDir, 'engine', 'src');
const contractSrc = path.join(packagesDir, 'contract', 'src');

/** Every TypeScript file of a package folder (sources, tests, servers), not its node_modules or build. */
function packageFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (name === 'node_modules' || name === 'dist') return [];
    return statSync(full).isDirectory() ? packageFiles(full) : /\.tsx?$/.test(name) ? [full] : [];
  });
}

/** Every import specifier of a file: relative, package and node: ones. */
const anyImport =
  /(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*['"]([^'"]+)['"]|(?:^|\n)\s*import\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
function importsOf(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(anyImport)].map((m) => m[1] ?? m[2] ?? m[3]!);
}

test('nothing outside the engine imports packages/engine/src', () => {
  const outside = readdirSync(packagesDir)
    .filter((p) => p !== 'engine' && statSync(path.join(packagesDir, p)).isDirectory())
    .flatMap((p) => packageFiles(path.join(packagesDir, p)));
  const found = outside.flatMap((file) =>
    importsOf(file)
      .filter((spec) => spec.startsWith('.'))
      .map((spec) => path.resolve(path.dirname(file), spec))
      .filter((target) => target.startsWith(engineSrc + path.sep))
      .map((target) => `${path.relative(packagesDir, file)} → ${path.relative(packagesDir, target)}`),
  );
  assert.deepEqual(found, []);
});

test('the contract is pure: it imports nothing outside packages/contract/src (no Node, no engine)', () => {
  const found = packageFiles(contractSrc).flatMap((file) =>
    importsOf(file)
      .filter((spec) => !spec.startsWith('./') || !path.resolve(path.dirname(file), spec).startsWith(contractSrc))
      .map((spec) => `${path.relative(packagesDir, file)} → ${spec}`),
  );
  assert.deepEqual(found, []);
});

test("every workspace package a package's sources import is declared in its package.json", () => {
  const undeclared: string[] = [];
  for (const name of readdirSync(packagesDir)) {
    const manifest = path.join(packagesDir, name, 'package.json');
    if (!statSync(path.join(packagesDir, name)).isDirectory()) continue;
    const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as {
      name: string;
      dependencies?: Record<string, string>;
      devDependencies?: Record<string, string>;
    };
    // the CLI bundles its dependencies (scripts/cli-build.ts), so the client declares them as devDependencies
    const declared = new Set([
      pkg.name,
      ...Object.keys(pkg.dependencies ?? {}),
      ...Object.keys(pkg.devDependencies ?? {}),
    ]);
    for (const dir of ['src', 'server'].map((d) => path.join(packagesDir, name, d))) {
      if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) continue;
      for (const file of packageFiles(dir))
        for (const spec of importsOf(file)) {
          const workspace = /^(@weir\/[^/]+)/.exec(spec)?.[1];
          if (workspace && !declared.has(workspace))
            undeclared.push(`${path.relative(packagesDir, file)} → ${workspace}`);
        }
    }
  }
  assert.deepEqual(undeclared, []);
});
