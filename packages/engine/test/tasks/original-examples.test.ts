import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { taskSchema } from '@weir/contract';
import { latestTask } from '../../src/tasks/task-definitions.ts';
import { compileValidator } from '../../src/validation/json-schema.ts';
import { checkTask, type TaskSpec } from '../../src/tasks/index.ts';

const examples = JSON.parse(
  readFileSync(new URL('../fixtures/original/task-definition-examples.json', import.meta.url), 'utf8'),
) as Record<string, unknown>[];

test("every task definition example of the original's reference is accepted as written", () => {
  assert.deepEqual(
    examples.map((e) => e.function),
    ['APPLY_RULES', 'EXTRACT', 'FILTER', 'OUTPUT_FIELD', 'PARSE_CSV', 'PARSE_KV', 'PDL_EXPRESSION', 'TIMESTAMP'],
  );
  const validate = compileValidator(taskSchema);
  for (const example of examples) {
    const latest = latestTask(example);
    assert.deepEqual(validate(latest), [], String(example.function));
    assert.deepEqual(checkTask(latest as unknown as TaskSpec), [], String(example.function));
  }
});
