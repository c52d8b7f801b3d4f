import { Alert } from '@mantine/core';

/** A red alert with an error message (optionally titled), or nothing while there is no error. */
export function ErrorAlert({ error, title }: { error: string | undefined; title?: string }) {
  return error ? (
    <Alert color="red" role="alert" title={title}>
      {error}
    </Alert>
  ) : null;
}
