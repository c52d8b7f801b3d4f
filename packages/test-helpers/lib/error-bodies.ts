/**
 * The API's error bodies as the spec writes them (Conventions → errors), for tests that compare
 * whole answers: `badRequest('…')` is a 400's body with that debug message.
 */
export interface ErrorBody {
  status: string;
  message: string;
  debugMessage: string;
  errors?: string[];
}

/** 400: `Resource validation failed`, with the reason. */
export const badRequest = (debugMessage: string): ErrorBody => ({
  status: 'BAD_REQUEST',
  message: 'Resource validation failed',
  debugMessage,
});

/** 400 of a request part that failed its schema: the violation is also the one entry of `errors`. */
export const schemaError = (debugMessage: string): ErrorBody => ({
  ...badRequest(debugMessage),
  errors: [debugMessage],
});

/** 404: `Resource not found`, with what was looked for. */
export const notFound = (debugMessage: string): ErrorBody => ({
  status: 'NOT_FOUND',
  message: 'Resource not found',
  debugMessage,
});
