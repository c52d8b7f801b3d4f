/**
 * The JSON Schema of each task function's definition: the very objects the API validates tasks
 * with (@weir/contract). The UI generates its task forms from them.
 */
export { taskFunctions as taskSchemas } from '@weir/contract';
/** The defaults the engine applies when a task runs (shown by the forms; not stored). */
export { taskDefaults } from '@weir/contract';
