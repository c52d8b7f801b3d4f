/**
 * The JSON Schema of each task function's definition: the very objects the API validates tasks
 * with (the engine's task-schemas.ts has no imports, so bundling it brings nothing else of the
 * engine). The UI generates its task forms from them.
 */
export { taskFunctions as taskSchemas } from '../../engine/src/tasks/task-schemas.ts';
/** The defaults the engine applies when a task runs (shown by the forms; not stored). */
export { taskDefaults } from '../../engine/src/tasks/definition-defaults.ts';
